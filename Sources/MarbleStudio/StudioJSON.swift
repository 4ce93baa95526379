import Foundation

/// Reading the page's JSON: objects, numbers and sizes, each refused with a sentence naming the field.
package enum StudioJSON {
    /// The top-level object of `bytes` (at most ``StudioLimits/maxBody``, nested at most 32 deep).
    package static func object<Bytes: Collection>(_ bytes: Bytes) throws(StudioFailure) -> [String: Any] where Bytes.Element == UInt8 {
        guard bytes.count <= StudioLimits.maxBody else { throw StudioFailure(.tooLarge, "the body is larger than 1 MB") }
        guard depth(of: bytes) <= 32 else { throw StudioFailure(.badRequest, "the JSON is nested more than 32 deep") }
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(bytes), options: []) } catch {
            throw StudioFailure(.badRequest, "the body is not valid JSON")
        }
        guard let object = parsed as? [String: Any] else { throw StudioFailure(.badRequest, "expected a JSON object") }
        return object
    }

    /// `object[key]` as a whole number, `fallback` when absent.
    package static func integer(_ object: [String: Any], _ key: String, default fallback: Int) throws(StudioFailure) -> Int {
        guard let value = object[key] else { return fallback }
        guard let number = value as? NSNumber, !isBoolean(number),
              number.doubleValue.rounded() == number.doubleValue, abs(number.doubleValue) < 1e15 else {
            throw StudioFailure(.badRequest, "\(key): expected a whole number")
        }
        return number.intValue
    }

    /// Whether `number` came from `true` or `false` (Foundation hands booleans over as numbers too).
    package static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// `object[key]` as a number, `fallback` when absent.
    package static func number(_ object: [String: Any], _ key: String, default fallback: Double) throws(StudioFailure) -> Double {
        guard let value = object[key] else { return fallback }
        guard let number = value as? NSNumber, !isBoolean(number), number.doubleValue.isFinite else {
            throw StudioFailure(.badRequest, "\(key): expected a number")
        }
        return number.doubleValue
    }

    /// `WIDTHxHEIGHT` with even sides from 16x16 to 7680x4320.
    package static func size(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(\.isASCII) }),
              let w = Int(parts[0]), let h = Int(parts[1]),
              (16...7680).contains(w), (16...4320).contains(h), w % 2 == 0, h % 2 == 0 else { return nil }
        return (w, h)
    }

    /// `object` as JSON: keys sorted, slashes as they are ("{}" if it holds anything JSON cannot).
    package static func data(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    /// `value` encoded as the API writes it: keys sorted, slashes as they are.
    package static func encoded(_ value: some Encodable) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try? encoder.encode(value)
    }

    /// `value` (from ``object(_:)``) as JSON text again.
    package static func text(of value: Any) throws(StudioFailure) -> String {
        guard JSONSerialization.isValidJSONObject([value]),
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) else {
            throw StudioFailure(.badRequest, "expected JSON")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The deepest nesting of brackets outside strings: checked before parsing, so a hostile body cannot
    /// exhaust the parser's stack.
    private static func depth<Bytes: Collection>(of bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
                continue
            }
            switch b {
            case 0x22: inString = true
            case 0x5B, 0x7B: depth += 1; deepest = max(deepest, depth)
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
        }
        return deepest
    }
}
