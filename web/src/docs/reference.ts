/**
 * Swagger UI on the API reference page (issue 25). This module is reached only through the dynamic import
 * in ApiReference.tsx, so it and its styles (Swagger UI's sheet, then ours) are chunks of their own, and
 * no other screen downloads them (test/e2e/api-reference.test.ts checks).
 *
 * Swagger UI itself is SmartBear's prebuilt bundle (it carries its own React), emitted by Vite as a hashed
 * asset and run as a script of the dashboard's origin, as published. Bundled through the dashboard's build
 * instead, its CommonJS wrapper and syntax helpers were shared with the initial chunks, which split them
 * into more files and grew the initial JS by 0.6 KB gzip (docs/api.md "Reference page"). It runs under the
 * dashboard's CSP unchanged (lib/web-headers.ts: scripts 'self', no eval): its `Function("return this")`
 * fallbacks are never reached in a browser, which has `globalThis`.
 */
import bundleUrl from 'swagger-ui-dist/swagger-ui-bundle.js?url';
import 'swagger-ui-dist/swagger-ui.css';
import './reference.css';
import { repairAccessibility } from './repairs';
import type { SwaggerResponse, SwaggerUIBundle } from './swagger-ui';

declare global {
  interface Window {
    /** Set by swagger-ui-bundle.js (a UMD script). */
    SwaggerUIBundle?: SwaggerUIBundle;
  }
}

/**
 * The document declares its schemas' dialect (JSON Schema 2020-12, which the API's tests validate with).
 * Swagger UI renders every 3.1 schema with the OpenAPI base dialect, a superset of 2020-12, and puts a red
 * "not supported" warning over the page for any other value; without the field it renders the same
 * schemas the same way, minus the warning. Only the page's copy changes: the served document keeps it.
 */
function withoutDialect(documentPath: string) {
  return (response: SwaggerResponse): SwaggerResponse => {
    if (new URL(response.url, window.location.href).pathname !== documentPath) return response;
    try {
      const { jsonSchemaDialect: _shown, ...rest } = JSON.parse(response.text) as Record<string, unknown>;
      return { ...response, text: JSON.stringify(rest) };
    } catch {
      return response; // Not JSON: Swagger UI reports it as it would.
    }
  };
}

let loading: Promise<SwaggerUIBundle> | undefined;

/** The bundle, loaded once per page life (coming back to the page reuses it). */
function swaggerUi(): Promise<SwaggerUIBundle> {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = bundleUrl;
    script.onload = () =>
      window.SwaggerUIBundle ? resolve(window.SwaggerUIBundle) : reject(new Error(bundleUrl));
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error(`${bundleUrl} did not load`));
    };
    document.head.append(script);
  });
  return loading;
}

/**
 * Renders the reference of the document at `url` (same origin; the v1 API serves it publicly) into
 * `target`; the returned function stops the DOM repairs (on unmount).
 */
export async function mountReference(target: HTMLElement, url: string): Promise<() => void> {
  const SwaggerUI = await swaggerUi();
  SwaggerUI({
    domNode: target,
    url,
    // The plain layout: the standalone one adds a top bar with a URL box that loads any document.
    presets: [SwaggerUI.presets.apis],
    layout: 'BaseLayout',
    // `#/<tag>/<operationId>` opens an operation, so a link can point at one.
    deepLinking: true,
    // No badge: it would send the document's address to validator.swagger.io. Nothing else leaves the origin.
    validatorUrl: null,
    // `?url=` and `?configUrl=` must not make this page show (and "try") another document.
    queryConfigEnabled: false,
    // The token entered under Authorize lives in memory only: not in localStorage, gone on reload.
    persistAuthorization: false,
    // "Try it out" calls as a script would: the bearer token only, without the dashboard's cookies.
    requestInterceptor: (request) => ({ ...request, credentials: 'omit' }),
    responseInterceptor: withoutDialect(url),
    docExpansion: 'list',
    displayRequestDuration: true,
  });
  // Swagger UI renders (and re-renders on every expand) with its own React: repair what it adds.
  repairAccessibility(target);
  const observer = new MutationObserver(() => repairAccessibility(target));
  observer.observe(target, { childList: true, subtree: true });
  return () => observer.disconnect();
}
