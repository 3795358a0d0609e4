/**
 * Widget app, loaded on the first click. The reporting UI, screenshots and annotation come in later
 * issues; for now it shows a minimal panel in a shadow root (isolated from the host page's CSS) and
 * takes over the loader's command queue.
 */

type Command = [name: string, args: unknown[]];
interface SnagGlobal {
  q: Command[];
  open: (...args: unknown[]) => void;
  close?: () => void;
}

(() => {
  const snag = (window as unknown as { Snag?: SnagGlobal }).Snag;
  if (!snag) return;

  let host: HTMLElement | null = null;

  function open(): void {
    if (host) return;
    host = document.createElement('div');
    host.setAttribute('data-snag', 'panel');
    const root = host.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>
.p{position:fixed;right:24px;bottom:24px;z-index:2147483000;width:320px;max-width:calc(100vw - 48px);
background:#fff;color:#1f2330;border-radius:14px;box-shadow:0 12px 40px rgba(20,20,60,.25);
font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow:hidden}
.h{display:flex;align-items:center;justify-content:space-between;padding:12px 16px;background:#4f4eae;color:#fff;font-weight:600}
.b{padding:16px}button{font:inherit;cursor:pointer;border:0;background:transparent;color:inherit;font-size:20px;line-height:1}
</style><div class="p" role="dialog" aria-label="Feedback"><div class="h"><span>Feedback</span>
<button type="button" aria-label="Close">×</button></div><div class="b">Thanks for helping us improve this site.</div></div>`;
    root.querySelector('button')?.addEventListener('click', close);
    document.body.appendChild(host);
  }

  function close(): void {
    host?.remove();
    host = null;
  }

  snag.open = open;
  snag.close = close;
  const queued = snag.q.splice(0);
  for (const [name] of queued) if (name === 'open') open();
})();

export {};
