/** The editor's tools and colours, in toolbar order, with their icons and the names the buttons carry. */
import type { Messages } from '../../../i18n';
import type { Tool } from '../../annotate/model';

/** Each tool's icon has the tool's name. */
export const tools: [Tool, keyof Messages][] = [
  ['select', 'toolSelect'],
  ['rect', 'toolRect'],
  ['arrow', 'toolArrow'],
  ['pen', 'toolPen'],
  ['text', 'toolText'],
  ['blur', 'toolBlur'],
  ['crop', 'toolCrop'],
];

/** The colours to draw with; the first is the one the editor starts with. */
export const colors: [string, keyof Messages][] = [
  ['#E5484D', 'colorRed'],
  ['#FFC53D', 'colorYellow'],
  ['#30A46C', 'colorGreen'],
  ['#0090FF', 'colorBlue'],
  ['#14141F', 'colorBlack'],
];
