import { describe, expect, it } from 'vitest';
import { initialScripts, staticImports } from '../../bench/web';

describe('web bench: what counts as initial JS', () => {
  it('takes entry scripts and modulepreloads from index.html', () => {
    const html = `<script type="module" crossorigin src="/assets/index-a.js"></script>
<link rel="modulepreload" crossorigin href="/assets/vendor-b.js">
<link rel="stylesheet" href="/assets/index.css">`;
    expect(initialScripts(html)).toEqual(['/assets/index-a.js', '/assets/vendor-b.js']);
  });

  it('follows static imports and re-exports but not lazy import()', () => {
    const code =
      'import{a as b}from"./chunk-1.js";import"./side.js";export{c}from"./re.js";const L=()=>import("./Lazy-2.js");';
    expect(staticImports(code)).toEqual(['./chunk-1.js', './side.js', './re.js']);
  });
});
