// The text forms of array and data values (SwiftUI's `.floatArray`, `.colorArray` and `.data`
// arguments), as `--arg`, `segue_effect_set_param`, Python and frei0r give them. Every length is
// checked against the type's maximum before anything is allocated by it: the commas are counted
// before the text is split, hex digits before they are decoded, and a file is read up to one byte
// past the limit.
import SegueMath
import SegueSystem

extension ParameterValue {
    /// An empty array or data value (what an array argument is until set: count 0).
    public static func empty(_ type: ParameterType) -> ParameterValue {
        precondition(type.isArray, "only array types are empty")
        return ParameterValue(type, [])
    }

    /// Parses text for an array or data parameter. Empty text is the empty value.
    /// - `float[]`: numbers separated by commas (`0.1,0.5,0.9`);
    /// - `color[]`: colours separated by commas, each `#rgb`, `#rrggbb` or `#rrggbbaa` (straight
    ///   alpha, premultiplied here as SwiftUI premultiplies a `Color`) or four numbers r,g,b,a as
    ///   the shader reads them (`#ff0000,#00ff0080` or `1,0,0,1,0,0.5,0,0.5`);
    /// - `bytes`: `@PATH` (the file's bytes), `0x` and hex digits (`0x00ff10`), or numbers 0…255
    ///   separated by commas.
    /// - Throws: `ParameterError.tooLong` past the type's maximum (before allocating by the
    ///   length given), `.invalidArray` for text in none of the forms or an unreadable file,
    ///   `.notFinite` for NaN or an infinity.
    public static func parseArray(_ text: String, as type: ParameterType, name: String) throws(ParameterError) -> ParameterValue {
        precondition(type.isArray, "parseArray takes an array type")
        let text = text.trimmingWhitespaceAndNewlines()
        if text.isEmpty { return .empty(type) }
        let limit = type.maximumElements
        if type == .data {
            if text.hasPrefix("@") { return try readData(String(text.dropFirst()), name: name) }
            if text.lowercased().hasPrefix("0x") {
                let digits = text.utf8.dropFirst(2)
                guard digits.count / 2 <= limit else { throw .tooLong(name: name, type: type, limit: limit, got: digits.count / 2) }
                guard digits.allSatisfy({ hexValue($0) != nil }) else {
                    throw .invalidArray(name: name, message: "'0x…' takes hex digits only (0-9, a-f), two per byte")
                }
                guard digits.count % 2 == 0, let bytes = decodeHex(Array(digits)) else {
                    throw .invalidArray(name: name, message: "'0x…' needs an even number of hex digits (two per byte)")
                }
                return ParameterValue(.data, bytes.map(Double.init))
            }
        }
        // Items between commas, counted before the text is split.
        let items = text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: ",") ? 1 : 0) }
        let itemLimit = limit * (type == .colorArray ? 4 : 1)
        guard items <= itemLimit else {
            throw .tooLong(name: name, type: type, limit: limit, got: type == .colorArray ? nil : items)
        }
        var components: [Double] = []
        components.reserveCapacity(items)
        var pending = 0  // numbers of a colour given as components
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingWhitespaceAndNewlines() }) {
            switch type {
            case .colorArray where part.hasPrefix("#"):
                guard pending == 0 else {
                    throw .invalidArray(name: name, message: "a colour given as numbers needs 4 (r,g,b,a) before the next '#' colour")
                }
                guard let rgba = hexColor(Substring(part.dropFirst())) else {
                    throw .invalidArray(name: name, message: "'\(part)' is not a colour (#rgb, #rrggbb, #rrggbbaa or four numbers r,g,b,a)")
                }
                components += premultiplied(rgba)
            case .data:
                guard let b = Int(part), (0...255).contains(b) else {
                    throw .invalidArray(
                        name: name,
                        message:
                            "'\(part)' is not a byte (0…255); give bytes as 0x and hex digits, @FILE or numbers 0…255 separated by commas")
                }
                components.append(Double(b))
            default:
                guard let d = Double(part) else {
                    throw .invalidArray(
                        name: name,
                        message:
                            "'\(MessageText.excerpt(part))' is not a number; give \(type == .colorArray ? "colours (#rrggbb[aa] or r,g,b,a)" : "numbers") separated by commas"
                    )
                }
                guard Float(d).isFinite else { throw .notFinite(name: name, text: part) }
                // SwiftUI's colours reach the shader as half4: ±65504 at most.
                guard type != .colorArray || abs(d) <= ParameterValue.largestHalf else {
                    throw .beyondHalf(name: name, type: "color[] (half4 components)", text: part)
                }
                components.append(d)
                if type == .colorArray { pending = (pending + 1) % 4 }
            }
        }
        guard pending == 0 else {
            throw .invalidArray(name: name, message: "a colour given as numbers needs 4 components (r,g,b,a); the last has \(pending)")
        }
        let count = components.count / type.elementComponents
        guard count <= limit else { throw .tooLong(name: name, type: type, limit: limit, got: count) }
        return ParameterValue(type, components)
    }

    /// The bytes of the file at `path`, read up to one past the limit.
    private static func readData(_ path: String, name: String) throws(ParameterError) -> ParameterValue {
        let limit = ParameterType.data.maximumElements
        guard !path.isEmpty else { throw .invalidArray(name: name, message: "'@' needs a file path (@FILE)") }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readPrefix(path: path, count: limit + 1)
        } catch {
            throw .invalidArray(name: name, message: "cannot read '\(path)': \(error.reason)")
        }
        guard bytes.count <= limit else { throw .tooLong(name: name, type: .data, limit: limit, got: nil) }
        return ParameterValue(.data, bytes.map(Double.init))
    }

    /// The value of one hex digit, nil for another character.
    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Hex digit pairs (an even count) as bytes, or nil for a character that is not a hex digit.
    private static func decodeHex(_ digits: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for k in stride(from: 0, to: digits.count - 1, by: 2) {
            guard let hi = hexValue(digits[k]), let lo = hexValue(digits[k + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }
}
