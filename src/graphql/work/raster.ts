/**
 * A diagram's SVG as a PNG image: `svgToPng(svg, { width })`, a plain synchronous function (SVG
 * text in, PNG bytes out) that knows nothing of HTTP or GraphQL. The service calls it on a worker
 * thread (`tasks.ts`, the `raster` task); the command line may call it as it is.
 *
 * The rasteriser is resvg (`@resvg/resvg-js`, MPL-2.0: Rust, shipped as a prebuilt native addon
 * inside its registry packages, no browser). It is loaded on first use, not when this module is,
 * so the workers and the command line start as fast as before, and a platform without its binary
 * loses the PNG pictures only.
 *
 * The text of a diagram (file letters, rank numbers, step numbers, the legend, the "unreachable"
 * banner) is drawn in DejaVu Sans (the `dejavu-fonts-ttf` package: the Bitstream Vera licence,
 * DejaVu's changes in the public domain), handed to resvg by file and named as the family of
 * `sans-serif` and of any other name: the machine's own fonts are never read, so a server
 * without fonts draws the same picture as a desktop. The background is white (a diagram's margins
 * are transparent in the SVG, which reads badly on a dark chat or preview card).
 *
 * Rasterising costs time and memory in proportion to the pixels (4 bytes each while drawing), so
 * the picture's size is read from the parsed SVG and refused past `maxPixels` before any pixel
 * is made; what resvg held is collected right after each picture (`collectYoung`). The SVG is this service's own drawing: resvg may read files an `<image>` names, so
 * never hand it SVG text from outside.
 */
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What `@resvg/resvg-js` is used for here. */
interface ResvgModule {
  Resvg: new (
    svg: string,
    options: Record<string, unknown>,
  ) => { width: number; height: number; render(): { asPng(): Uint8Array } };
}

const require = createRequire(import.meta.url);

/** The font files (regular and bold), found where npm installed them. */
export const RASTER_FONT_FILES = [
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
];

/** The family every text is drawn in. */
const FAMILY = 'DejaVu Sans';

/**
 * Names what the pictures are drawn with (rasteriser and font versions), so that a new version of
 * either changes the entity tags of the PNG pictures.
 */
export const RASTER_VERSION = [
  `resvg-js ${(require('@resvg/resvg-js/package.json') as { version: string }).version}`,
  `dejavu ${(require('dejavu-fonts-ttf/package.json') as { version: string }).version}`,
].join(', ');

let resvg: ResvgModule | undefined;

/** How to rasterise. */
export interface RasterOptions {
  /** Width of the PNG in pixels; the height follows the SVG's aspect ratio. */
  width: number;
  /** Most pixels (width x height) drawn; past it `RasterSizeError` (default: no limit). */
  maxPixels?: number;
}

/** A picture that would be over the pixel limit: nothing was drawn. */
export class RasterSizeError extends RangeError {
  override readonly name = 'RasterSizeError';
  constructor(
    readonly width: number,
    readonly height: number,
    readonly maxPixels: number,
  ) {
    super(
      `a PNG ${width} pixels wide of this picture is ${height} pixels tall: ${width * height} pixels, over the limit of ${maxPixels}`,
    );
  }
}

/** The height in pixels of the PNG `svgToPng` makes `width` pixels wide of a `svgWidth` x `svgHeight` picture. */
export function pngHeight(svgWidth: number, svgHeight: number, width: number): number {
  return Math.max(1, Math.round((svgHeight * width) / svgWidth));
}

/** V8's collector, as `--expose-gc` gives it (`gc({ type: 'minor' })`: the young generation only). */
type Collector = (options?: { type: 'minor' | 'major' }) => void;
let collector: Collector | undefined;

/**
 * Collects the young generation, so that the parsed picture and its pixels, which resvg's objects
 * hold outside the JavaScript heap, are freed at the next turn of the event loop (their
 * finalizers' turn) rather than whenever the collector next runs: the addon does not tell V8 of
 * that memory, and a worker making PNGs allocates too little JavaScript to collect on its own (60
 * pictures 1200 pixels wide kept 400 MB). The objects die young (made and dropped by one call),
 * so a minor collection (under a millisecond) finds them. The collector is reached as Jest does
 * for `--logHeapUsage`: `--expose-gc` set at run time, then `gc` read from a new context.
 */
function collectYoung(): void {
  if (!collector) {
    const exposed = (globalThis as { gc?: Collector }).gc;
    if (!exposed) setFlagsFromString('--expose-gc');
    collector = exposed ?? (runInNewContext('gc') as Collector);
  }
  collector({ type: 'minor' });
}

/** The PNG of `svg`, `options.width` pixels wide, on a white background. */
export function svgToPng(svg: string, options: RasterOptions): Uint8Array {
  try {
    return rasterise(svg, options);
  } finally {
    // resvg's objects are out of reach once `rasterise` returned (or threw): collect them now.
    collectYoung();
  }
}

/** What `svgToPng` does, leaving resvg's objects behind. */
function rasterise(svg: string, options: RasterOptions): Uint8Array {
  if (!Number.isInteger(options.width) || options.width < 1)
    throw new RangeError(`width ${options.width} is not a size`);
  resvg ??= require('@resvg/resvg-js') as ResvgModule;
  const picture = new resvg.Resvg(svg, {
    fitTo: { mode: 'width', value: options.width },
    background: '#ffffff',
    font: {
      loadSystemFonts: false,
      fontFiles: RASTER_FONT_FILES,
      defaultFontFamily: FAMILY,
      sansSerifFamily: FAMILY,
      serifFamily: FAMILY,
      monospaceFamily: FAMILY,
    },
    logLevel: 'off',
  });
  // The parsed picture's own size (user units), scaled as `fitTo` scales it.
  const height = pngHeight(picture.width, picture.height, options.width);
  if (options.maxPixels !== undefined && options.width * height > options.maxPixels) {
    throw new RasterSizeError(options.width, height, options.maxPixels);
  }
  return picture.render().asPng();
}
