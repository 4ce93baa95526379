#if Studio
import Foundation
import Hummingbird
import MarbleCore
import MarbleStudio

/// The API's answers: JSON bodies, and every failure as `{"error": "…"}` with its status.
enum APIResponse {
    static func json(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        json(StudioJSON.data(object), status: status)
    }

    static func json(encoding value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        guard let data = StudioJSON.encoded(value) else { return error(StudioFailure(.internalError, "cannot encode the answer")) }
        return json(data, status: status)
    }

    static func error(_ failure: StudioFailure) -> Response {
        json(["error": failure.message], status: HTTPResponse.Status(code: failure.status))
    }

    /// Runs `body`, answering a ``StudioFailure`` or `MarbleError` with its JSON error.
    static func answering(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let failure as StudioFailure {
            return error(failure)
        } catch let e as MarbleError {
            return error(StudioFailure(e.kind == .input || e.kind == .option || e.kind == .preset ? .badRequest : .internalError, e.message))
        } catch {
            return self.error(StudioFailure(.internalError, String(describing: error).prefix(200).description))
        }
    }

    /// The body of `request`, at most `limit` bytes (1 MB): refused as soon as it says or turns out
    /// to be longer, never read whole first.
    static func body(of request: Request, limit: Int = StudioLimits.maxBody) async throws -> [UInt8] {
        let tooLarge = StudioFailure(.tooLarge, "the body is larger than \(limit >> 20) MB")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
        var bytes: [UInt8] = []
        for try await piece in request.body {
            guard bytes.count + piece.readableBytes <= limit else { throw tooLarge }
            bytes.append(contentsOf: piece.readableBytesView)
        }
        return bytes
    }
}
#endif
