/**
 * Draws a document onto a canvas: the screenshot, cropped, with its shapes. The same code draws the editor
 * view, the thumbnails and the flattened PNG that is uploaded, so what the visitor sees is what is sent.
 */
import {
  arrowHead,
  blockFor,
  boundsOf,
  type Doc,
  intersect,
  type Rect,
  type Shape,
  strokeFor,
  viewOf,
} from './model';

export const fontFamily = 'system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif';

/** A light halo behind dark text and a dark one behind light text, so text reads on any background. */
function haloFor(color: string): string {
  const n = Number.parseInt(color.slice(1), 16);
  const luma = 0.3 * (n >> 16) + 0.59 * ((n >> 8) & 255) + 0.11 * (n & 255);
  return luma > 150 ? '#14141F' : '#FFFFFF';
}

function pixelate(ctx: CanvasRenderingContext2D, base: CanvasImageSource, r: Rect, block: number): void {
  if (r.w < 1 || r.h < 1) return;
  const small = document.createElement('canvas');
  small.width = Math.max(1, Math.ceil(r.w / block));
  small.height = Math.max(1, Math.ceil(r.h / block));
  small.getContext('2d')!.drawImage(base, r.x, r.y, r.w, r.h, 0, 0, small.width, small.height);
  ctx.save();
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(small, 0, 0, small.width, small.height, r.x, r.y, small.width * block, small.height * block);
  ctx.restore();
}

function drawShape(
  ctx: CanvasRenderingContext2D,
  base: CanvasImageSource,
  s: Shape,
  W: number,
  H: number,
): void {
  const lw = strokeFor(W, H);
  ctx.strokeStyle = ctx.fillStyle = s.color;
  ctx.lineWidth = lw;
  ctx.lineCap = ctx.lineJoin = 'round';
  switch (s.kind) {
    case 'rect': {
      const r = boundsOf(s);
      ctx.strokeRect(r.x, r.y, r.w, r.h);
      break;
    }
    case 'blur': {
      const r = intersect(boundsOf(s), { x: 0, y: 0, w: W, h: H });
      ctx.save();
      ctx.beginPath();
      ctx.rect(r.x, r.y, r.w, r.h);
      ctx.clip(); // The last block row and column would spill past the region.
      pixelate(ctx, base, r, blockFor(W, H));
      ctx.restore();
      break;
    }
    case 'arrow': {
      const [l, r] = arrowHead(s.a, s.b, lw * 5);
      ctx.beginPath();
      ctx.moveTo(s.a.x, s.a.y);
      ctx.lineTo(s.b.x, s.b.y);
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(s.b.x, s.b.y);
      ctx.lineTo(l.x, l.y);
      ctx.lineTo(r.x, r.y);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
      break;
    }
    case 'pen': {
      ctx.beginPath();
      for (const p of s.points) ctx.lineTo(p.x, p.y); // The first lineTo of a new path acts as moveTo.
      ctx.stroke();
      break;
    }
    case 'text': {
      ctx.font = `600 ${s.size}px ${fontFamily}`;
      ctx.textBaseline = 'top';
      ctx.lineWidth = s.size / 5;
      ctx.strokeStyle = haloFor(s.color);
      ctx.strokeText(s.text, s.at.x, s.at.y + s.size * 0.15);
      ctx.fillText(s.text, s.at.x, s.at.y + s.size * 0.15);
      break;
    }
  }
}

/** Width of `text` at `size`, for the text shape's hit box. */
export function measureText(text: string, size: number): number {
  const ctx = document.createElement('canvas').getContext('2d')!;
  ctx.font = `600 ${size}px ${fontFamily}`;
  return ctx.measureText(text).width;
}

/**
 * Renders `doc` over `base` into `canvas`, which takes the size of the visible region times `scale`
 * (1 for the PNG; less for thumbnails). `selected` gets a dashed outline, `draft` is the shape being drawn.
 */
export function render(
  canvas: HTMLCanvasElement,
  base: HTMLCanvasElement,
  doc: Doc,
  opts: { scale?: number; selected?: number; draft?: Shape | null; cropDraft?: Rect | null } = {},
): void {
  const W = base.width;
  const H = base.height;
  const view = viewOf(doc, W, H);
  const scale = opts.scale ?? 1;
  const w = Math.max(1, Math.round(view.w * scale));
  const h = Math.max(1, Math.round(view.h * scale));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(scale, 0, 0, scale, -view.x * scale, -view.y * scale);
  ctx.drawImage(base, 0, 0);
  for (const s of doc.shapes) drawShape(ctx, base, s, W, H);
  if (opts.draft) drawShape(ctx, base, opts.draft, W, H);
  const outline = (r: Rect, shade: boolean) => {
    const lw = strokeFor(W, H) / 1.5;
    if (shade) {
      // Darken everything outside the region being cropped to.
      ctx.fillStyle = 'rgba(0,0,0,.5)';
      ctx.beginPath();
      ctx.rect(view.x, view.y, view.w, view.h);
      ctx.rect(r.x, r.y, r.w, r.h);
      ctx.fill('evenodd');
    }
    ctx.lineWidth = lw;
    ctx.setLineDash([lw * 3, lw * 2]);
    ctx.strokeStyle = '#FFFFFF';
    ctx.strokeRect(r.x - lw * 2, r.y - lw * 2, r.w + lw * 4, r.h + lw * 4);
    ctx.lineDashOffset = lw * 2.5;
    ctx.strokeStyle = '#14141F';
    ctx.strokeRect(r.x - lw * 2, r.y - lw * 2, r.w + lw * 4, r.h + lw * 4);
    ctx.setLineDash([]);
    ctx.lineDashOffset = 0;
  };
  const sel = opts.selected === undefined ? undefined : doc.shapes[opts.selected];
  if (sel) outline(boundsOf(sel), false);
  if (opts.cropDraft) outline(opts.cropDraft, true);
}

/** The annotated screenshot at full resolution, as the PNG that is uploaded. */
export function flatten(base: HTMLCanvasElement, doc: Doc): Promise<Blob> {
  const canvas = document.createElement('canvas');
  render(canvas, base, doc);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('toBlob failed'))), 'image/png'),
  );
}

/** A small JPEG of the annotated screenshot for the form's thumbnail. */
export function thumbnail(base: HTMLCanvasElement, doc: Doc, width = 240): string {
  const canvas = document.createElement('canvas');
  const view = viewOf(doc, base.width, base.height);
  render(canvas, base, doc, { scale: Math.min(1, width / view.w) });
  return canvas.toDataURL('image/jpeg', 0.8);
}
