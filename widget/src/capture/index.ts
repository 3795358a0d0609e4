/**
 * The page-capture side of the widget (issue 7): what the widget app (widget/src/app/) calls through
 * `capture`. The interface is types.ts; docs/decisions-widget.md explains the choices.
 */
import { customFieldValues } from './custom-fields';
import { deviceData } from './device';
import { widgetFilter } from './dom';
import { countPlaceholders } from './image-cache';
import { canCaptureScreen, canRecord, captureScreen, startRecording } from './screen';
import { snapshotHtml } from './snapshot';
import type { CaptureApi } from './types';
import { viewportCanvas } from './viewport';

export const capture: CaptureApi = {
  async captureViewport({ exclude }) {
    const skip = widgetFilter(exclude);
    // The snapshot first and synchronously: it and the picture show the same moment.
    const html = snapshotHtml(skip);
    const snag = window.Snag ?? {};
    snag._m = 1; // The loader's log buffer leaves our own image fetches out (log-buffer.ts).
    try {
      const { value: canvas, placeholders } = await countPlaceholders(() => viewportCanvas(skip));
      return { canvas, html, placeholders };
    } finally {
      delete snag._m;
    }
  },
  canCaptureScreen,
  captureScreen,
  snapshotHtml: ({ exclude }) => snapshotHtml(widgetFilter(exclude)),
  canRecord,
  startRecording,
  deviceData: () => deviceData(),
  customFieldValues: (fields) => customFieldValues(fields),
};
