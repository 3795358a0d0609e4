/**
 * Types for the part of Swagger UI (swagger-ui-dist's bundle, which ships none) that reference.ts uses:
 * only the options it sets; Swagger UI reads many more.
 */
export interface SwaggerRequest {
  url: string;
  method?: string;
  headers: Record<string, string>;
  credentials?: RequestCredentials;
}

export interface SwaggerResponse {
  url: string;
  status: number;
  text: string;
}

export interface SwaggerUIOptions {
  domNode: HTMLElement;
  url: string;
  presets: unknown[];
  layout: 'BaseLayout' | 'StandaloneLayout';
  deepLinking: boolean;
  validatorUrl: string | null;
  queryConfigEnabled: boolean;
  persistAuthorization: boolean;
  requestInterceptor: (request: SwaggerRequest) => SwaggerRequest;
  responseInterceptor: (response: SwaggerResponse) => SwaggerResponse;
  docExpansion: 'list' | 'full' | 'none';
  displayRequestDuration: boolean;
}

export interface SwaggerUIBundle {
  (options: SwaggerUIOptions): unknown;
  presets: { apis: unknown };
}
