// libFuzzer harness: MilkDrop 2 shader text → ShaderCompiler (as a warp and as a composite shader) →
// the program's invariants checked → one pixel run through ShaderReference. Compile errors are fine;
// crashes, hangs and malformed programs are not.
import CLibFuzzer
import Foundation
import MilkDrop

/// A texture that gives back where it was read.
final class Probe: ShaderTexture {
    let width = 4, height = 4, depth = 1
    func sample(mode: SamplerMode, count: Int, u: UnsafePointer<Float>, v: UnsafePointer<Float>, w: UnsafePointer<Float>?,
                r: UnsafeMutablePointer<Float>?, g: UnsafeMutablePointer<Float>?,
                b: UnsafeMutablePointer<Float>?, a: UnsafeMutablePointer<Float>?) {
        for i in 0..<count { r?[i] = u[i]; g?[i] = v[i]; b?[i] = w?[i] ?? 0; a?[i] = 1 }
    }
}

/// Traps when the program breaks the contract of `ShaderProgram.swift`.
func check(_ p: ShaderProgram) {
    let count = p.registerCount
    func valid(_ r: Int32) { precondition(r >= 0 && r < count, "register \(r) out of 0..<\(count)") }
    var preloaded = Set<Int32>()
    for c in p.constants { valid(c.register); preloaded.insert(c.register) }
    for u in p.uniforms { valid(u.register); preloaded.insert(u.register); precondition(u.offset >= 0 && Int(u.offset) < ShaderUniforms.count) }
    for i in p.inputs { valid(i.register); preloaded.insert(i.register) }
    for t in p.textureSizes { valid(t.register); preloaded.insert(t.register); precondition(t.slot >= 0 && Int(t.slot) < p.samplers.count) }
    func written(_ r: Int32) { valid(r); precondition(!preloaded.contains(r), "code writes preloaded register \(r)") }
    for op in p.code {
        switch op {
        case .move(let d, let a), .unary(_, let d, let a): written(d); valid(a)
        case .binary(_, let d, let a, let b): written(d); valid(a); valid(b)
        case .ternary(_, let d, let a, let b, let c): written(d); valid(a); valid(b); valid(c)
        case .sample(let slot, let u, let v, let w, let r, let g, let b, let a):
            precondition(slot >= 0 && Int(slot) < p.samplers.count)
            valid(u); valid(v)
            if w >= 0 { valid(w) }
            for x in [r, g, b, a] where x >= 0 { written(x) }
        case .jump(let to): precondition(to >= 0 && Int(to) <= p.code.count)
        case .jumpIfNone(let mask, let to), .loopBack(let mask, let to): valid(mask); precondition(to >= 0 && Int(to) <= p.code.count)
        }
    }
    valid(p.output.r); valid(p.output.g); valid(p.output.b)
}

enum Frame { static let uniforms: [Float] = { var u = ShaderUniforms(seed: 7); u.update(ShaderFrameInput()); return u.values }() }

func compile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for kind in [MilkShaderKind.warp, .composite] {
        guard let program = try? ShaderCompiler.compile(text, kind: kind) else { continue }
        check(program)
        // Running is bounded by operations × loop iterations: keep each input fast.
        guard program.code.count <= 2_000 else { continue }
        let reference = ShaderReference(program: program, textures: program.samplers.map { _ in Probe() })
        _ = reference.run(uniforms: Frame.uniforms) { _ in 0.5 }
    }
    return 0
}

// As in FuzzPreset: SwiftPM's main hands the function to libFuzzer's driver.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { compile(data, size) }

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in compile(data, size) }))
