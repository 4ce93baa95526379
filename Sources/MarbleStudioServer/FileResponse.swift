#if Studio
import Foundation
import Hummingbird
import MarbleStudio

/// A file of the studio's folders as a response: whole, or the byte range a `Range: bytes=…` header
/// asks for (the page's `<audio>` seeks with them), streamed by Hummingbird's `FileIO`.
enum FileResponse {
    static func serve(_ path: String, type: String, request: Request, context: StudioContext,
                      attachment: String? = nil) async throws -> Response {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil else {
            throw StudioFailure(.notFound, "no such file")
        }
        var headers: HTTPFields = [.contentType: type, .acceptRanges: "bytes", .cacheControl: "no-cache"]
        if let attachment {
            let ascii = String(attachment.map { $0.isASCII && $0 != "\"" && $0 != "\\" && !$0.isNewline ? $0 : "_" })
            let encoded = attachment.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ascii
            headers[.contentDisposition] = "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
        }
        let io = FileIO()
        if let header = request.headers[.range], size > 0 {
            guard let range = StudioAccess.byteRange(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            return Response(status: .partialContent, headers: headers,
                            body: try await io.loadFile(path: path, range: range, context: context))
        }
        headers[.contentLength] = String(size)
        return Response(status: .ok, headers: headers, body: try await io.loadFile(path: path, context: context))
    }
}
#endif
