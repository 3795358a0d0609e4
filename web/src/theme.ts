/** Mantine theme: the Snag brand colour (#4F4EAE, the default widget colour) as the primary palette. */
import { createTheme, type MantineColorsTuple } from '@mantine/core';

const brand: MantineColorsTuple = [
  '#f0f0fa',
  '#dfdff4',
  '#bcbce7',
  '#9797da',
  '#7878cf',
  '#6463c7',
  '#4f4eae',
  '#43429a',
  '#393887',
  '#2e2d70',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: { brand },
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    Button: { defaultProps: { fw: 600 } },
  },
});
