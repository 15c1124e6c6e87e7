import SegueAnimation

/// A fresh clock at time 0, its context, and a host.
func makeHost() -> (ManualClock, AnimationContext, AnimationHost) {
    let clock = ManualClock()
    let context = AnimationContext(clock: clock)
    return (clock, context, AnimationHost(context: context))
}

/// Records which action sources were consulted and used.
final class ActionLog {
    var entries: [String] = []

    func action(_ name: String) -> Action {
        Action { [self] _ in entries.append(name) }
    }
}

/// A delegate answering from a dictionary and counting display calls.
final class TestDelegate: AnimationHostDelegate {
    var answers: [String: Action] = [:]
    var asked: [String] = []
    var displayCount = 0

    func action(for host: AnimationHost, forKey key: String) -> Action? {
        asked.append(key)
        return answers[key]
    }

    func display(_ host: AnimationHost) {
        displayCount += 1
    }
}
