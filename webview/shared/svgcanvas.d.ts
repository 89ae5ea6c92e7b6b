// svgcanvas 2.6 ships no types: the parts of its mock 2D context that webview/shared/chartExport.ts uses, including
// the internals its CSP-safe text method calls (the library's own method is replaced there).
declare module 'svgcanvas' {
  export class Context {
    constructor(options: { width: number; height: number });
    width: number;
    height: number;
    font: string;
    textAlign: CanvasTextAlign;
    textBaseline: CanvasTextBaseline;
    getSvg(): SVGSVGElement;
    protected __document: Document;
    protected __currentElement: Element;
    protected __applyText(text: string, x: number, y: number, action: 'fill' | 'stroke'): void;
    protected __createElement(name: string, attrs: Record<string, string | number>, resetFill?: boolean): Element;
    protected __closestGroupOrSvg(): Element;
    protected __applyTransformation(element: Element): void;
    protected __applyStyleToCurrentElement(action: 'fill' | 'stroke'): void;
  }
}
