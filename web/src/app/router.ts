/** The browser router over the route map (kept apart so tests can match routes without a DOM). */
import { createBrowserRouter } from 'react-router-dom';
import { routes } from './routes';

export const router = createBrowserRouter(routes);
