import MarbleCore

/// A generator that blends its own pixels onto the canvas (`drawsOnCanvas`): it writes one row loop,
/// generic over the blend function, and ``drawRows(blending:_:_:)`` picks the loop specialised for
/// the layer's mode, so the choice is made once per strip, never per pixel.
protocol BlendedRowDrawing {
    /// Draws `rows` of `target`, combining each pixel with what is under it through `B`.
    func drawRows<B: BlendFunction>(_: B.Type, _ target: TextureView, _ rows: Range<Int>)
}

extension BlendedRowDrawing {
    /// The row loop specialised for `mode`.
    @inline(__always)
    func drawRows(blending mode: BlendMode, _ target: TextureView, _ rows: Range<Int>) {
        switch mode {
        case .normal: drawRows(NormalBlend.self, target, rows)
        case .add: drawRows(AddBlend.self, target, rows)
        case .screen: drawRows(ScreenBlend.self, target, rows)
        case .multiply: drawRows(MultiplyBlend.self, target, rows)
        }
    }
}
