// cm-chessboard ships JavaScript without types; the chessboard test's page uses a few names of it.
declare module 'cm-chessboard/src/Chessboard.js' {
  export class Chessboard {
    constructor(element: HTMLElement | null, props: Record<string, unknown>);
    initialized: Promise<void>;
    addArrow(type: object, from: string, to: string): void;
    addMarker(type: object, square: string): void;
  }
}
declare module 'cm-chessboard/src/extensions/arrows/Arrows.js' {
  export const ARROW_TYPE: Record<string, object>;
  export class Arrows {}
}
declare module 'cm-chessboard/src/extensions/markers/Markers.js' {
  export const MARKER_TYPE: Record<string, object>;
  export class Markers {}
}
