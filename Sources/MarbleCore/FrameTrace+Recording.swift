import Foundation

extension FrameTrace {
    /// What one trace recorded: a lane per thread, and the Chrome trace file and summary made from it.
    package struct Recording: Sendable {
        /// One thread's spans, in the order they ended.
        package struct Lane: Sendable {
            package var name: String
            var events: [TraceEvent]
            /// Spans not kept (past ``FrameTrace/spanLimit``).
            package var dropped: Int
        }

        package var lanes: [Lane]

        /// Spans recorded in all lanes.
        package var spanCount: Int { lanes.reduce(0) { $0 + $1.events.count } }

        /// The earliest span's start: time 0 of the file.
        private var origin: UInt64 { lanes.compactMap { $0.events.map(\.start).min() }.min() ?? 0 }

        /// One thread's time, summed by span kind.
        package struct Totals: Sendable {
            package var lane: String
            /// From the lane's first span's start to its last span's end, in seconds.
            package var wallSeconds: Double
            /// Wall and CPU milliseconds by kind, and the number of spans of each kind.
            package var wall: [Span: Double] = [:]
            package var cpu: [Span: Double] = [:]
            package var counts: [Span: Int] = [:]
            /// Wall and CPU milliseconds of work (spans that are not waits), each moment counted once:
            /// a span inside another (a render thread's strips inside its draw) adds nothing.
            package var busyWall = 0.0, busyCPU = 0.0
        }

        /// Each lane's totals, in lane order.
        package func totals() -> [Totals] {
            lanes.map { lane in
                var t = Totals(lane: lane.name, wallSeconds: 0)
                guard let first = lane.events.map(\.start).min(), let last = lane.events.map(\.end).max() else { return t }
                t.wallSeconds = Double(last &- first) / 1e9
                for e in lane.events {
                    guard let kind = Span(rawValue: e.kind) else { continue }
                    t.wall[kind, default: 0] += Double(e.end &- e.start) / 1e6
                    t.cpu[kind, default: 0] += Double(e.cpu) / 1e6
                    t.counts[kind, default: 0] += 1
                }
                // Outermost work spans only (a lane's spans nest, never overlap otherwise).
                var reach: UInt64 = 0
                for e in lane.events.sorted(by: { $0.start < $1.start || ($0.start == $1.start && $0.end > $1.end) }) {
                    guard let kind = Span(rawValue: e.kind), !kind.isWait, e.end > reach else { continue }
                    guard e.start >= reach else { continue }   // inside an earlier span
                    reach = e.end
                    t.busyWall += Double(e.end &- e.start) / 1e6
                    t.busyCPU += Double(e.cpu) / 1e6
                }
                return t
            }
        }

        /// The Chrome trace format (JSON object form): a complete event (`"ph":"X"`) per span, with its
        /// wall interval in microseconds from the first span, the thread's CPU time over it (`tdur`)
        /// and the frame; a `thread_name` metadata event per lane. Perfetto and `chrome://tracing` open it.
        package func chromeJSON() -> Data {
            var out = Data()
            out.reserveCapacity(spanCount * 120 + 4096)
            out.append(contentsOf: #"{"displayTimeUnit":"ms","traceEvents":["#.utf8)
            var first = true
            func emit(_ line: String) {
                if !first { out.append(contentsOf: ",\n".utf8) }
                first = false
                out.append(contentsOf: line.utf8)
            }
            emit(#"{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"marble"}}"#)
            let zero = origin
            for (tid, lane) in lanes.enumerated() {
                emit(#"{"name":"thread_name","ph":"M","pid":1,"tid":\#(tid + 1),"args":{"name":\#(Self.quoted(lane.name))}}"#)
                emit(#"{"name":"thread_sort_index","ph":"M","pid":1,"tid":\#(tid + 1),"args":{"sort_index":\#(tid + 1)}}"#)
                for e in lane.events {
                    guard let kind = Span(rawValue: e.kind) else { continue }
                    let ts = Self.micros(e.start &- zero), dur = Self.micros(e.end &- e.start), cpu = Self.micros(e.cpu)
                    let frame = e.frame >= 0 ? #","args":{"frame":\#(e.frame)}"# : ""
                    emit(#"{"name":\#(Self.quoted(kind.name)),"cat":"\#(kind.isWait ? "wait" : "work")","ph":"X","pid":1,"tid":\#(tid + 1),"ts":\#(ts),"dur":\#(dur),"tdur":\#(cpu)\#(frame)}"#)
                }
            }
            out.append(contentsOf: "]}\n".utf8)
            return out
        }

        /// Nanoseconds as microseconds with three decimals.
        static func micros(_ ns: UInt64) -> String {
            let whole = ns / 1000, part = ns % 1000
            return part == 0 ? "\(whole)" : "\(whole).\(String(part + 1000).dropFirst())"
        }

        /// A JSON string.
        static func quoted(_ s: String) -> String {
            var out = "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
                default: out.unicodeScalars.append(u)
                }
            }
            return out + "\""
        }
    }
}
