import Foundation
import MilkDrop
import Testing

/// Compiles the code of every preset Debian's projectm-data installs, with a throwaway line scan of the
/// .milk files (the real file parser is `MilkPresetParser`): how much of the corpus this language reads.
@Suite("Expression corpus")
struct ExpressionCorpusTests {
    static let folder = "/usr/share/projectM/presets"

    /// The code blocks of one .milk text: `per_frame_init_N`, `per_frame_N`, `per_pixel_N`,
    /// `wave_K_init|per_frame|per_pointN`, `shape_K_init|per_frameN`, lines joined in numeric order.
    static func codeBlocks(_ text: String) -> [String: String] {
        var lines: [String: [(Int, String)]] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            guard let eq = raw.firstIndex(of: "=") else { continue }
            let key = raw[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            let digits = key.reversed().prefix { $0.isASCII && $0.isNumber }.count
            guard digits > 0, let n = Int(key.suffix(digits)), isCodeKey(String(key.dropLast(digits))) else { continue }
            lines[String(key.dropLast(digits)), default: []].append((n, String(raw[raw.index(after: eq)...])))
        }
        return lines.mapValues { $0.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: "\n") }
    }

    /// `per_frame_init_`, `per_frame_`, `per_pixel_`, `wave_K_init|per_frame|per_point`, `shape_K_init|per_frame`.
    static func isCodeKey(_ prefix: String) -> Bool {
        if ["per_frame_init_", "per_frame_", "per_pixel_"].contains(prefix) { return true }
        let parts = prefix.split(separator: "_", maxSplits: 2)
        guard parts.count == 3, parts[0] == "wave" || parts[0] == "shape", Int(parts[1]) != nil else { return false }
        return ["init", "per_frame", "per_point"].contains(parts[2])
    }

    @Test("the per-frame, per-pixel, wave and shape code of every installed preset compiles and runs (counts printed)")
    func corpus() throws {
        let manager = FileManager.default
        guard manager.fileExists(atPath: Self.folder), let walker = manager.enumerator(atPath: Self.folder) else {
            print("ExpressionCorpusTests: \(Self.folder) is absent (install projectm-data); corpus pass skipped")
            return
        }
        var presets = 0, cleanPresets = 0, blocks = 0, failedBlocks = 0
        var reasons: [String: Int] = [:], examples: [String: String] = [:]
        for case let path as String in walker where path.hasSuffix(".milk") {
            guard let data = manager.contents(atPath: Self.folder + "/" + path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            presets += 1
            var clean = true
            let global = MegaBuffer()
            for (name, code) in Self.codeBlocks(text) {
                blocks += 1
                do {
                    let memory = ExpressionMemory(globalBuffer: global)
                    let program = try ExpressionProgram(compiling: code, memory: memory)
                    for _ in 0..<2 { program.run() }   // runs without trapping (debug asserts the stack's balance)
                } catch {
                    failedBlocks += 1
                    clean = false
                    let reason = error.message.replacing(/"[^"]*"/, with: "…")
                    reasons[reason, default: 0] += 1
                    if examples[reason] == nil {
                        let bytes = Array(code.utf8)
                        let around = bytes[max(0, error.offset - 20)..<min(bytes.count, error.offset + 20)]
                        examples[reason] = "\(path) [\(name)] \(error.message): …\(String(decoding: around, as: UTF8.self))…"
                            .replacingOccurrences(of: "\n", with: "⏎")
                    }
                }
            }
            if clean { cleanPresets += 1 }
        }
        print("ExpressionCorpusTests: \(presets) presets, \(cleanPresets) compile completely; \(blocks) code blocks, \(blocks - failedBlocks) compile, \(failedBlocks) fail")
        for (reason, count) in reasons.sorted(by: { $0.value > $1.value }).prefix(10) {
            print("  \(count)× \(reason) — e.g. \(examples[reason] ?? "")")
        }
        #expect(presets > 1000)
        #expect(Double(blocks - failedBlocks) >= 0.99 * Double(blocks))
    }
}
