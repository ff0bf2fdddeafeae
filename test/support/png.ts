/**
 * PNG answers read back for the picture tests: the signature and the IHDR chunk checked by hand
 * (so a wrong header fails with a clear message), the pixels decoded with pngjs (MIT), and a
 * pixel read at a point of the diagram given in the SVG's user units.
 */
import pngjs from 'pngjs';

/** The eight bytes every PNG starts with. */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A decoded PNG. */
export interface ReadPng {
  width: number;
  height: number;
  /** The RGBA pixel at (x, y), in pixels. */
  pixel(x: number, y: number): [number, number, number, number];
  /** The pixel at a point of the picture in the SVG's user units, for a picture `svgWidth` wide. */
  at(svgWidth: number, ux: number, uy: number): [number, number, number, number];
  /** Distinct colours among the pixels. */
  colours(): number;
}

/** Width and height from the IHDR chunk, after checking the signature and the chunk's place. */
export function pngHeader(bytes: Uint8Array): { width: number; height: number } {
  const signature = Array.from(bytes.subarray(0, 8));
  if (signature.join() !== PNG_SIGNATURE.join()) throw new Error(`not a PNG: starts with ${signature}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = new TextDecoder().decode(bytes.subarray(12, 16));
  if (view.getUint32(8) !== 13 || type !== 'IHDR') throw new Error(`the first chunk is ${type}, not IHDR`);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Decodes a PNG (its header checked first). */
export function readPng(bytes: Uint8Array): ReadPng {
  const header = pngHeader(bytes);
  const png = pngjs.PNG.sync.read(Buffer.from(bytes));
  if (png.width !== header.width || png.height !== header.height) throw new Error('IHDR and pixels disagree');
  const pixel = (x: number, y: number): [number, number, number, number] => {
    const i = (Math.round(y) * png.width + Math.round(x)) * 4;
    return [png.data[i], png.data[i + 1], png.data[i + 2], png.data[i + 3]];
  };
  return {
    width: png.width,
    height: png.height,
    pixel,
    at: (svgWidth, ux, uy) => pixel((ux * png.width) / svgWidth, (uy * png.width) / svgWidth),
    colours() {
      const seen = new Set<number>();
      for (let i = 0; i < png.data.length; i += 4) seen.add(png.data.readUInt32BE(i));
      return seen.size;
    },
  };
}
