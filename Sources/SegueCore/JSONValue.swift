// A JSON tree as JSONDecoder reads it, for the checked walks over mesh files and concat specs
// (each names the path of a bad entry).

import Foundation

/// A JSON value, decoded by JSONDecoder (exact numbers, booleans kept apart from numbers).
package enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Most likely first: every failed attempt costs an error (JSONDecoder refuses to
        // read `true` as a number and numbers as booleans, so the order is safe).
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .bool(try container.decode(Bool.self))
        }
    }

    /// A value from a Foundation object tree, or `nil` for a type JSON does not have.
    package init?(any value: Any) {
        switch value {
        case is NSNull: self = .null
        case let n as NSNumber:
            self = String(cString: n.objCType) == "c" ? .bool(n.boolValue) : .number(n.doubleValue)
        case let b as Bool: self = .bool(b)
        case let d as Double: self = .number(d)
        case let i as Int: self = .number(Double(i))
        case let s as String: self = .string(s)
        case let a as [Any]:
            var items: [JSONValue] = []
            for item in a {
                guard let converted = JSONValue(any: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        case let o as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, item) in o {
                guard let converted = JSONValue(any: item) else { return nil }
                members[key] = converted
            }
            self = .object(members)
        default: return nil
        }
    }
}

// MARK: - Reading a tree

extension JSONValue {
    /// The member `key` of an object; nil for a missing member or another kind of value.
    package subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    /// The text of a string; nil for another kind of value.
    package var string: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// A finite number, or a string holding one (ffprobe writes durations as strings); nil otherwise.
    package var number: Double? {
        switch self {
        case let .number(value): value.isFinite ? value : nil
        case let .string(text): Double(text).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// A whole number (or a string holding one); nil otherwise.
    package var integer: Int? {
        if case let .string(text) = self { return Int(text) }
        return number.flatMap { Int(exactly: $0) }
    }

    /// The items of an array; empty for another kind of value.
    package var items: [JSONValue] {
        if case let .array(items) = self { return items }
        return []
    }
}

