import SegueCore
import SegueMath
import SegueMedia
import SegueRender
import SegueShaders
import SegueVulkan

// `segue_builtin_*` and `segue_info_*`: what effects exist and what their parameters are, for
// hosts that list effects and map their parameters to their own (frei0r plugins, Python), with
// no GPU. A description answers for the use `segue_transition_create` or `segue_effect_create`
// makes of the effect, looked up by the same code (`EffectLookup`).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The object behind `segue_info *`: an effect's description with its texts as C strings.
final class InfoHandle {
    /// One parameter's description.
    struct Parameter {
        let name: CString
        let type: CString
        let summary: CString
        /// The default's components (empty for a texture).
        let defaults: [Double]
        /// The range of the components, when known.
        let range: ClosedRange<Double>?
    }

    let name: CString
    let summary: CString
    /// The effect that plays pops ("" when a pop plays this one backwards).
    let reverse: CString
    /// The effect's own timing curve or spring.
    let timing: CString
    /// `segue_kind`: 0 transition, 1 mesh transition, 2 single image.
    let kind: Int32
    let duration: Double
    let parameters: [Parameter]

    /// Describes `effect` as a transition, else as an effect on one image.
    /// - Throws: the transition lookup's error when neither use accepts the name.
    init(_ effectName: String) throws {
        let effect: Effect
        do {
            effect = try EffectLookup.transition(effectName).effect
            kind = effect.kind == .mesh ? 1 : 0
        } catch let transitionError {
            switch try? EffectLookup.image(effectName) {
            case let .shader(resolved)?: effect = resolved.effect
            case let .mesh(mesh)?: effect = mesh
            case nil: throw transitionError
            }
            kind = 2
        }
        name = CString(effect.name)
        summary = CString(effect.summary)
        reverse = CString(effect.reverse ?? "")
        timing = CString(effect.defaultTiming)
        duration = effect.defaultDuration
        parameters = effect.parameters.map { p in
            Parameter(
                name: CString(p.name), type: CString(p.type.rawValue), summary: CString(p.summary),
                defaults: p.effectiveDefault?.components ?? [],
                range: p.hostRange)
        }
    }

    /// Parameter `index`, nil when out of range.
    func parameter(_ index: UInt) -> Parameter? {
        index < UInt(parameters.count) ? parameters[Int(index)] : nil
    }
}

/// The built-ins' names in listing order, as C strings that live as long as the process.
let builtinNames: [CString] = EffectCatalog.builtIns.map { CString($0.name) }

/// The description behind a handle; nil for NULL.
private func info(_ handle: OpaquePointer?) -> InfoHandle? {
    try? object(handle, "info", as: InfoHandle.self)
}

// MARK: - C entry points

/// `segue_builtin_count`.
@_cdecl("segue_builtin_count")
public func segue_builtin_count() -> UInt {
    UInt(builtinNames.count)
}

/// `segue_builtin_name`.
@_cdecl("segue_builtin_name")
public func segue_builtin_name(_ index: UInt) -> UnsafePointer<CChar>? {
    index < UInt(builtinNames.count) ? builtinNames[Int(index)].pointer : nil
}

/// `segue_info_create`.
@_cdecl("segue_info_create")
public func segue_info_create(_ effect: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer? {
    catchingErrors(error, failure: nil) { retainedHandle(try InfoHandle(try string(effect, "effect"))) }
}

/// `segue_info_destroy`.
@_cdecl("segue_info_destroy")
public func segue_info_destroy(_ handle: OpaquePointer?) {
    releaseHandle(handle, as: InfoHandle.self)
}

/// `segue_info_name` ("" for NULL).
@_cdecl("segue_info_name")
public func segue_info_name(_ handle: OpaquePointer?) -> UnsafePointer<CChar> {
    info(handle)?.name.pointer ?? emptyCString.pointer
}

/// `segue_info_summary` ("" for NULL).
@_cdecl("segue_info_summary")
public func segue_info_summary(_ handle: OpaquePointer?) -> UnsafePointer<CChar> {
    info(handle)?.summary.pointer ?? emptyCString.pointer
}

/// `segue_info_reverse` ("" for NULL).
@_cdecl("segue_info_reverse")
public func segue_info_reverse(_ handle: OpaquePointer?) -> UnsafePointer<CChar> {
    info(handle)?.reverse.pointer ?? emptyCString.pointer
}

/// `segue_info_timing` ("" for NULL).
@_cdecl("segue_info_timing")
public func segue_info_timing(_ handle: OpaquePointer?) -> UnsafePointer<CChar> {
    info(handle)?.timing.pointer ?? emptyCString.pointer
}

/// `segue_info_kind` (-1 for NULL).
@_cdecl("segue_info_kind")
public func segue_info_kind(_ handle: OpaquePointer?) -> Int32 {
    info(handle)?.kind ?? -1
}

/// `segue_info_duration` (NaN for NULL).
@_cdecl("segue_info_duration")
public func segue_info_duration(_ handle: OpaquePointer?) -> Double {
    info(handle)?.duration ?? .nan
}

/// `segue_info_param_count` (0 for NULL).
@_cdecl("segue_info_param_count")
public func segue_info_param_count(_ handle: OpaquePointer?) -> UInt {
    UInt(info(handle)?.parameters.count ?? 0)
}

/// `segue_info_param_name`.
@_cdecl("segue_info_param_name")
public func segue_info_param_name(_ handle: OpaquePointer?, _ index: UInt) -> UnsafePointer<CChar>? {
    info(handle)?.parameter(index)?.name.pointer
}

/// `segue_info_param_type`.
@_cdecl("segue_info_param_type")
public func segue_info_param_type(_ handle: OpaquePointer?, _ index: UInt) -> UnsafePointer<CChar>? {
    info(handle)?.parameter(index)?.type.pointer
}

/// `segue_info_param_summary`.
@_cdecl("segue_info_param_summary")
public func segue_info_param_summary(_ handle: OpaquePointer?, _ index: UInt) -> UnsafePointer<CChar>? {
    info(handle)?.parameter(index)?.summary.pointer
}

/// `segue_info_param_default`: writes up to `capacity` components, returns their count.
@_cdecl("segue_info_param_default")
public func segue_info_param_default(
    _ handle: OpaquePointer?, _ index: UInt, _ values: UnsafeMutablePointer<Double>?,
    _ capacity: UInt
) -> Int32 {
    guard let p = info(handle)?.parameter(index) else { return -1 }
    if let values {
        for (i, v) in p.defaults.enumerated() where UInt(i) < capacity { values[i] = v }
    }
    return Int32(p.defaults.count)
}

/// `segue_info_param_range`: 1 and the range when known, 0 when not, -1 out of range.
@_cdecl("segue_info_param_range")
public func segue_info_param_range(
    _ handle: OpaquePointer?, _ index: UInt, _ minimum: UnsafeMutablePointer<Double>?,
    _ maximum: UnsafeMutablePointer<Double>?
) -> Int32 {
    guard let p = info(handle)?.parameter(index) else { return -1 }
    guard let range = p.range else { return 0 }
    minimum?.pointee = range.lowerBound
    maximum?.pointee = range.upperBound
    return 1
}
