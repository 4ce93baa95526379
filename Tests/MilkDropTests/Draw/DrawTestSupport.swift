import MarbleCore
@testable import MilkDrop

/// A small opaque canvas for the drawing tests.
struct Canvas {
    let texture: Texture
    init(width: Int = 64, height: Int = 36, fill: RGBA8 = RGBA8(r: 0, g: 0, b: 0)) {
        texture = Texture(width: width, height: height)
        texture.fill(fill)
    }
    var width: Int { texture.width }
    var height: Int { texture.height }

    /// The pixel at (x, y) as (r, g, b).
    func pixel(_ x: Int, _ y: Int) -> SIMD3<Int> {
        let p = texture.view.row(y) + x * 4
        return SIMD3(Int(p[0]), Int(p[1]), Int(p[2]))
    }
    /// Sum of the red channel over the picture.
    var redSum: Int { (0..<height).reduce(0) { s, y in s + (0..<width).reduce(0) { $0 + pixel($1, y).x } } }

    func draw(_ list: MilkDrawList, texture source: TextureView? = nil) {
        MilkRasterizer.draw(list, into: texture.view, rows: 0..<height, texture: source)
    }
    /// Rows that have any pixel with red above `threshold`.
    func litRows(threshold: Int = 40) -> [Int] {
        (0..<height).filter { y in (0..<width).contains { pixel($0, y).x > threshold } }
    }
    func litColumns(threshold: Int = 40) -> [Int] {
        (0..<width).filter { x in (0..<height).contains { pixel(x, $0).x > threshold } }
    }
}
