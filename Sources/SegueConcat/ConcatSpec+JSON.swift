import FoundationEssentials
import SegueCore
import SegueMath
import SegueSystem

// A concat spec from its JSON file, with errors a user can act on: the key path of what is wrong
// and the JSON types expected and found ("clips[1].in: expected a number, found the string \"2\""), and
// keys the spec does not know named with the closest one it does ("unknown key 'transtion' in
// the spec; did you mean 'transition'?"), so a misspelt key is never silently ignored.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ConcatSpec {
    /// Decodes and validates a spec file's bytes.
    /// - Throws: `CompositionError` with the JSON path of what is wrong: a key the spec does not
    ///   know, a value of the wrong type, a missing `clips`, or what `validate()` finds.
    public init(json data: Data) throws(CompositionError) {
        let tree: JSONValue
        do throws(JSONSyntax.DocumentProblem) { tree = try JSONSyntax.document(data, "the spec", limit: Self.maximumFileSize) } catch {
            throw CompositionError(error.message)
        }
        if let unknown = Self.unknownKey(in: tree) { throw CompositionError(unknown) }
        do { self = try Self.decode(ConcatSpec.self, from: data, in: tree) } catch {
            throw CompositionError(error.problem.map { "the spec is not valid: \($0)" } ?? "the spec is not valid JSON")
        }
        try validate()
    }

    // MARK: - Unknown keys

    /// "unknown key 'transtion' in the spec; did you mean 'transition'?" for the first key (in
    /// the spec's order of places, keys sorted) that no part of the spec reads; nil when none.
    static func unknownKey(in tree: JSONValue) -> String? {
        guard case let .object(top) = tree else { return nil }
        var places: [(place: String, object: [String: JSONValue], known: [String])] = [
            ("the spec", top, CodingKeys.allCases.map(\.rawValue))
        ]
        if case let .array(clips)? = top["clips"] {
            for (k, clip) in clips.enumerated() {
                if case let .object(o) = clip { places.append(("clips[\(k)]", o, ClipSpec.CodingKeys.allCases.map(\.rawValue))) }
            }
        }
        if case let .array(cuts)? = top["cuts"] {
            for (k, cut) in cuts.enumerated() {
                if case let .object(o) = cut { places.append(("cuts[\(k)]", o, CutSpec.CodingKeys.allCases.map(\.rawValue))) }
            }
        }
        if case let .object(o)? = top["transition"] { places.append(("transition", o, CutSpec.CodingKeys.allCases.map(\.rawValue))) }
        for (place, object, known) in places {
            if let unknown = JSONValue.unknownKey(in: object, place: place, known: known) { return unknown }
        }
        return nil
    }

    // MARK: - Decoding errors

    /// Why a file's bytes did not decode as a spec or a plan.
    struct DecodingFailure: Error {
        /// What `describe` says of a decoding error; nil for any other failure.
        let problem: String?
    }

    /// `T` decoded from a file's bytes, whose JSON is `tree` (a spec's or a plan's).
    /// - Throws: `DecodingFailure`, with the path and problem of a decoding error.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, in tree: JSONValue) throws(DecodingFailure) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw DecodingFailure(problem: describe(error, in: tree))
        } catch {
            throw DecodingFailure(problem: nil)
        }
    }

    /// "clips[2].in: expected a number, found a string" from a decoding error; `tree` is the
    /// file's JSON, where the value found is looked up.
    static func describe(_ error: DecodingError, in tree: JSONValue) -> String {
        func path(_ keys: [CodingKey]) -> String {
            let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        func at(_ keys: [CodingKey]) -> String { keys.isEmpty ? "" : path(keys) + ": " }
        func found(_ keys: [CodingKey]) -> String {
            tree.value(at: keys).map { "found \($0.described)" } ?? "found nothing"
        }
        switch error {
        case let .typeMismatch(type, context):
            return "\(at(context.codingPath))expected \(Self.expected(type)), \(found(context.codingPath))"
        case let .valueNotFound(type, context):
            return "\(at(context.codingPath))expected \(Self.expected(type)), found null"
        case let .keyNotFound(key, context):
            return "\(path(context.codingPath + [key])): missing"
        case let .dataCorrupted(context):
            guard context.codingPath.isEmpty else { return path(context.codingPath) + ": " + context.debugDescription }
            // The tree was read, so the JSON is valid: the decoder says "not valid JSON" for a
            // number that does not fit its field (too large, or a fraction for a whole number).
            if let (keys, value) = Self.firstNumber(in: tree, [], where: { abs($0) >= 0x1p53 }) {
                return "\(path(keys)): \(MessageText.number(value)) is too large"
            }
            return "a number does not fit its field (a fraction where a whole number belongs, or one too large)"
        @unknown default:
            return "invalid"
        }
    }

    /// The first number in `tree` (depth first, keys in order) for which `test` holds, and where.
    private static func firstNumber(
        in tree: JSONValue, _ keys: [CodingKey],
        where test: (Double) -> Bool
    ) -> (keys: [CodingKey], value: Double)? {
        switch tree {
        case let .number(value): return test(value) ? (keys, value) : nil
        case let .array(items):
            for (i, item) in items.enumerated() {
                if let found = firstNumber(in: item, keys + [JSONKey(intValue: i)], where: test) { return found }
            }
        case let .object(fields):
            for key in fields.keys.sorted() {
                if let found = firstNumber(in: fields[key]!, keys + [JSONKey(stringValue: key)], where: test) { return found }
            }
        default: break
        }
        return nil
    }

    /// The JSON a Swift type is read from, in words.
    private static func expected(_ type: Any.Type) -> String {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Double.self): "a number"
        case ObjectIdentifier(Int.self), ObjectIdentifier(Int64.self): "a whole number"
        case ObjectIdentifier(String.self): "a string"
        case ObjectIdentifier(Bool.self): "true or false"
        case ObjectIdentifier([Any].self): "a list"
        case ObjectIdentifier([String: Any].self): "an object"
        case ObjectIdentifier(CutOrText.self): "a transition as text (EFFECT[:SECONDS]) or an object"
        case ObjectIdentifier(ParameterText.self): "a string, a number, true or false, or a list of numbers"
        case ObjectIdentifier(RateNumberOrText.self): "a number or a ratio such as \"30000/1001\""
        default: "another type"
        }
    }
}

// MARK: - JSON values

/// What a spec's JSON holds where (the tree is `JSONValue`, shared with mesh files and ffprobe's answers).
extension JSONValue {
    /// The value at a decoder's coding path; nil where there is none.
    func value(at path: [CodingKey]) -> JSONValue? {
        var here = self
        for key in path {
            switch here {
            case let .array(items):
                guard let i = key.intValue, items.indices.contains(i) else { return nil }
                here = items[i]
            case let .object(members):
                guard let next = members[key.stringValue] else { return nil }
                here = next
            default:
                return nil
            }
        }
        return here
    }
}

/// A cut written either as text (`"fade:1"`) or as an object.
struct CutOrText: Decodable {
    let cut: CutSpec

    init(from decoder: Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            do { cut = try CutSpec(parsing: text) } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
            }
            return
        }
        do {
            cut = try CutSpec(from: decoder)
        } catch let DecodingError.typeMismatch(_, context) where context.codingPath.count == decoder.codingPath.count {
            // The value itself is neither text nor an object (a failure inside the object keeps its own path).
            throw DecodingError.typeMismatch(CutOrText.self, .init(codingPath: decoder.codingPath, debugDescription: ""))
        }
    }
}

/// A parameter value written as a string, a number, a bool or an array of numbers.
struct ParameterText: Decodable {
    let text: String

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let s = try? c.decode(String.self) {
            text = s
        } else if let b = try? c.decode(Bool.self) {
            text = b ? "true" : "false"
        } else if let d = try? c.decode(Double.self) {
            text = String(exactNumber: d)
        } else if let list = try? c.decode([Double].self) {
            text = list.map { String(exactNumber: $0) }.joined(separator: ",")
        } else {
            throw DecodingError.typeMismatch(ParameterText.self, .init(codingPath: decoder.codingPath, debugDescription: ""))
        }
    }
}

/// `audioCurve`: one of the curve names.
struct CurveText: Decodable {
    let curve: CrossfadeCurve

    init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let curve = CrossfadeCurve(rawValue: text) else {
            let names = CrossfadeCurve.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected \(names), found \(JSONValue.string(text).described)"))
        }
        self.curve = curve
    }
}

/// A frame rate in a spec: a number, or a ratio as text (`"30000/1001"`, NTSC's rate exactly).
struct RateNumberOrText: Decodable {
    let fps: Double

    init(from decoder: Decoder) throws {
        switch try JSONValue(from: decoder) {
        case let .number(number):
            fps = number
        case let .string(text):
            guard let rate = FrameRate.parse(text) else {
                let expected = "expected a number or a ratio such as \"30000/1001\", found \(JSONValue.string(text).described)"
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: expected))
            }
            fps = rate
        default:
            throw DecodingError.typeMismatch(RateNumberOrText.self, .init(codingPath: decoder.codingPath, debugDescription: ""))
        }
    }
}

/// A coding key for a path into a JSON tree.
private struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}
