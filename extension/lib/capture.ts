/**
 * The extension's `CaptureApi` (widget/src/capture/types.ts) for the widget's own app: the picture comes
 * from the browser (`tabs.captureVisibleTab`, asked of the background worker), so it is pixel-exact with
 * cross-origin frames and canvases; the widget's privacy masks (capture/mask.ts) are painted over it before
 * the user sees or annotates it. The rest (HTML snapshot, device data, custom fields, real-screen capture
 * and recording) is the widget's own code.
 */
import { customFieldValues } from '../../widget/src/capture/custom-fields';
import { deviceData } from '../../widget/src/capture/device';
import { widgetFilter } from '../../widget/src/capture/dom';
import { maskRects, paintMasks } from '../../widget/src/capture/mask';
import { canCaptureScreen, canRecord, captureScreen, startRecording } from '../../widget/src/capture/screen';
import { snapshotHtml } from '../../widget/src/capture/snapshot';
import type { CaptureApi } from '../../widget/src/capture/types';

/** A `data:image/png;base64,…` URL as a Blob, decoded here: no fetch, so no page policy is involved. */
export function dataUrlBlob(dataUrl: string): Blob {
  const comma = dataUrl.indexOf(',');
  const type = /^data:([^;,]+)/.exec(dataUrl)?.[1] ?? 'application/octet-stream';
  const text = atob(dataUrl.slice(comma + 1));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return new Blob([bytes], { type });
}

/**
 * The tab's visible area as a canvas with the masks painted: the masked elements' rectangles are read at
 * the moment of the capture and scaled by the picture's own pixels per CSS pixel (device pixel ratio and
 * zoom alike).
 */
export function extensionCapture(captureTab: () => Promise<string>): CaptureApi {
  return {
    async captureViewport({ exclude }) {
      const skip = widgetFilter(exclude);
      // The snapshot and the mask rectangles first and synchronously: they and the picture show one moment.
      const html = snapshotHtml(skip);
      // The panel is hidden while capturing (the controller does it): its own fields have no rectangles.
      const rects = maskRects();
      const image = await createImageBitmap(dataUrlBlob(await captureTab()));
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      canvas.getContext('2d')!.drawImage(image, 0, 0);
      image.close();
      paintMasks(canvas, rects, canvas.width / window.innerWidth);
      return { canvas, html, placeholders: 0 };
    },
    canCaptureScreen,
    captureScreen,
    snapshotHtml: ({ exclude }) => snapshotHtml(widgetFilter(exclude)),
    canRecord,
    startRecording,
    deviceData: () => deviceData(),
    customFieldValues: (fields) => customFieldValues(fields),
  };
}
