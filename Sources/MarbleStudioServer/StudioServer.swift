#if Studio
import Hummingbird
import HummingbirdWebSocket
import MarbleStudio

/// The studio's web server (only with the `Studio` trait).
package enum StudioServer {
    package static let isAvailable = true
}
#else
/// The studio's web server: this build was made without the `Studio` trait.
package enum StudioServer {
    package static let isAvailable = false
}
#endif
