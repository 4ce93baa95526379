// Granite: a Redux-like state architecture (after pexavc/Granite), rebuilt UI-free for Linux.
//
// Vocabulary:
// - A ``GraniteComponent`` owns one ``GraniteStore``; `start()`/`stop()` are its lifecycle.
// - A ``GraniteCenter`` declares the ``GraniteState`` (a Codable, Equatable, Sendable value),
//   the events that can happen to it, and how each event is reduced.
// - A ``GraniteReducer`` (or ``GranitePayloadReducer``) is one synchronous state transition,
//   with `before`/`after` events chained in one documented order.
// - Async work runs as a ``GraniteEffect``; its results come back as events, reduced against
//   the state current at that moment.
// - ``GranitePersistence`` saves committed snapshots atomically and loads them back.
// - ``GraniteTestStore`` and ``GraniteTestClock`` make all of it testable without real time.
//
// Semantics, fixed: one serial executor (a lock) per store; no reducer ever awaits, so no update is
// ever lost; notifications are delivered in commit order; cancelled effects never deliver.
//
// Not here, on purpose: Granite's services (one shared store per type, held through relays) and the
// debounce/throttle effects were removed in an audit because nothing in MarbleKit used them; a store
// per component and effects with ids, cancellation and timers cover what the engine needs.
