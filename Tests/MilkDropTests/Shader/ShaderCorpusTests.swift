import Foundation
@testable import MilkDrop
import Testing

/// Compiles the warp and composite shaders of every preset in Debian's projectm-data (read with the
/// real ``MilkPresetParser``) and prints how many compile, the failures grouped by reason, and the
/// size of the programs. Fails when the folder is missing: CI installs the package.
@Suite("Shader corpus")
struct ShaderCorpusTests {
    static let folder = "/usr/share/projectM/presets"

    @Test("at least 97 % of the warp and composite shaders of Debian's presets compile (reasons printed)")
    func corpus() throws {
        let manager = FileManager.default
        #expect(manager.fileExists(atPath: Self.folder), "install projectm-data: \(Self.folder) is missing")
        guard let walker = manager.enumerator(atPath: Self.folder) else { return }
        var presets = 0, shaders = 0, compiled = 0
        var reasons: [String: Int] = [:], examples: [String: String] = [:]
        var operations: [Int] = [], registers: [Int] = []
        var largest = (operations: 0, name: "")
        var masked = 0
        var seconds = 0.0
        for case let path as String in walker where path.hasSuffix(".milk") {
            guard let file = try? MilkPresetParser.parse(contentsOf: Self.folder + "/" + path), file.hasShaders else { continue }
            presets += 1
            for (block, kind) in [(file.warpShader, MilkShaderKind.warp), (file.compositeShader, .composite)] {
                guard let block else { continue }
                shaders += 1
                do {
                    let started = Date()
                    let program = try ShaderCompiler.compile(block, kind: kind)
                    seconds += Date().timeIntervalSince(started)
                    compiled += 1
                    let problems = contractViolations(program)
                    #expect(problems.isEmpty, "\(path) [\(kind)]: \(problems.prefix(3))")
                    // Every program runs on a pixel (the reference traps on a bad register).
                    _ = ShaderRun.run(program)
                    if ProcessInfo.processInfo.environment["SHADER_CORPUS_DUMP"].map({ path.contains($0) }) == true {
                        print("== \(path) [\(kind)]: \(program.code.count) operations, \(program.registerCount) registers")
                        for (k, op) in program.code.enumerated() { print("  \(k): \(op)") }
                    }
                    operations.append(program.code.count)
                    if program.code.contains(where: { if case .loopBack = $0 { true } else { false } }) { masked += 1 }
                    if program.code.count > largest.operations { largest = (program.code.count, "\(path) [\(kind)]") }
                    registers.append(Int(program.registerCount))
                } catch {
                    let reason = error.reason.description
                    reasons[reason, default: 0] += 1
                    if examples[reason] == nil || examples[reason]!.count > 300 { examples[reason] = "\(path):\(error.line): \(error.message)" }
                    if ProcessInfo.processInfo.environment["SHADER_CORPUS_VERBOSE"] != nil { print("  FAIL \(path):\(error.line) [\(kind)] \(error.message)") }
                }
            }
        }
        operations.sort(); registers.sort()
        func median(_ a: [Int]) -> Int { a.isEmpty ? 0 : a[a.count / 2] }
        func p90(_ a: [Int]) -> Int { a.isEmpty ? 0 : a[a.count * 9 / 10] }
        print("ShaderCorpusTests: \(presets) presets with shaders; \(shaders) shaders, \(compiled) compile, \(shaders - compiled) fail; compiling took \(String(format: "%.2f", seconds)) s")
        print("  operations median \(median(operations)), p90 \(p90(operations)), max \(operations.last ?? 0) (\(largest.name)); registers median \(median(registers)), p90 \(p90(registers)), max \(registers.last ?? 0); \(masked) with a masked loop")
        for (reason, count) in reasons.sorted(by: { $0.value > $1.value }) {
            print("  \(count)× \(reason) — e.g. \(examples[reason] ?? "")")
        }
        #expect(presets >= 700)
        #expect(Double(compiled) >= 0.97 * Double(shaders))
    }
}
