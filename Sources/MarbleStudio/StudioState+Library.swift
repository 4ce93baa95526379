import Foundation
import MarbleCore
import MarbleMedia
import MarbleRender

extension StudioState {
    /// The embedded cover of a song as a JPEG, at most 256x256 (its shape kept); nil without one.
    package func cover(_ relative: String, folder: Int) throws(StudioFailure) -> [UInt8]? {
        let path = try songPath(relative, folder: folder)
        do throws(MarbleError) {
            guard let picture = try CoverArt.picture(in: path, width: 256, height: 256, fit: .contain).picture else { return nil }
            return try JPEGEncoder(width: picture.width, height: picture.height, quality: 85).encode(picture.view)
        } catch {
            throw StudioFailure(.badRequest, error.message)
        }
    }

    /// A preset by name as the page edits it: `{name, look, yaml, saved}`.
    package func preset(_ name: String) throws(StudioFailure) -> [String: Any] {
        let (preset, yaml) = try presets.load(name)
        let look: Any
        do { look = try JSONSerialization.jsonObject(with: Data(try StudioLook.json(of: preset))) } catch let e as MarbleError {
            throw StudioFailure(.internalError, e.message)
        } catch {
            throw StudioFailure(.internalError, "cannot write the look as JSON")
        }
        return ["name": name, "look": look, "yaml": yaml, "saved": !PresetLibrary.names().contains(name)]
    }

    /// Saves a look (the body of `POST /api/presets`) as `OUTPUT/presets/NAME.yaml`.
    package func savePreset(_ body: [String: Any]) throws(StudioFailure) -> [String: Any] {
        for key in body.keys where !["name", "look", "replace"].contains(key) {
            throw StudioFailure(.badRequest, "\(key.prefix(40)): unknown field (expected name, look, replace)")
        }
        guard let name = body["name"] as? String else { throw StudioFailure(.badRequest, "name: missing (1–64 of A–Z a–z 0–9 - _)") }
        guard let value = body["look"] else { throw StudioFailure(.badRequest, "look: missing") }
        let replace: Bool
        switch body["replace"] {
        case nil: replace = false
        case let flag as NSNumber where StudioJSON.isBoolean(flag): replace = flag.boolValue
        default: throw StudioFailure(.badRequest, "replace: expected true or false")
        }
        var look = try self.look(fromJSONValue: value)
        look.name = name
        let saved = try presets.save(name: name, preset: look, replace: replace)
        return ["name": name, "path": saved.path, "yaml": saved.yaml]
    }
}
