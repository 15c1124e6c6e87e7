// A video stream's packets in decode order (from `MediaProbe.videoPackets`), and which of its
// keyframes a stream copy may start or stop at.
//
// A container's keyframe flag means "decoding may start here", but for H.264 that covers two kinds
// of pictures. An IDR picture empties the decoder's reference lists and restarts picture order:
// nothing after it refers to anything before it. A recovery-point I picture (an open GOP, as
// x264's `open-gop=1` makes) does neither: the B-pictures shown just before it may be decoded
// after it and refer to the GOP before, its picture order continues the previous one, and memory
// management commands after it name pictures before it. A copy that starts there, or a copy of the
// GOP before it that stops there, loses or reorders frames when joined to other pieces (decoders
// report "mmco: unref short failure" and drop pictures). So a clean cut point is an IDR picture
// with no leading pictures: no packet after it in decode order is shown before it.
//
// Whether a keyframe is IDR is read from the file itself: the packet's NAL units (each after a
// 4-byte big-endian length, as in MP4) are walked to the first slice, whose `nal_unit_type` is 5
// for IDR and 1 otherwise (ITU-T H.264 §7.4.1). A packet that cannot be walked so is not clean.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The packets of a video stream in decode order (`MediaProbe.videoPackets`).
public struct VideoPackets: Sendable, Hashable {
    /// One packet's timestamps (nil when the container has none), keyframe flag and place in
    /// the file.
    public struct Packet: Sendable, Hashable {
        /// Presentation timestamp in time-base units.
        public var pts: Int64?
        /// Decoding timestamp in time-base units.
        public var dts: Int64?
        /// Whether the container marks it as a place decoding can start.
        public var isKeyframe: Bool
        /// Its size in bytes, when known.
        public var size: Int?
        /// Its byte offset in the file, when known.
        public var position: Int64?

        /// A packet.
        public init(pts: Int64?, dts: Int64?, isKeyframe: Bool, size: Int? = nil, position: Int64? = nil) {
            self.pts = pts
            self.dts = dts
            self.isKeyframe = isKeyframe
            self.size = size
            self.position = position
        }
    }

    /// The time base: one unit is numerator/denominator seconds.
    public var timeBaseNumerator: Int64, timeBaseDenominator: Int64
    /// The packets in file order.
    public var packets: [Packet]

    /// A packet list.
    public init(timeBaseNumerator: Int64, timeBaseDenominator: Int64, packets: [Packet]) {
        self.timeBaseNumerator = timeBaseNumerator
        self.timeBaseDenominator = timeBaseDenominator
        self.packets = packets
    }

    /// `units` in seconds.
    public func seconds(_ units: Int64) -> Double { Double(units) * Double(timeBaseNumerator) / Double(timeBaseDenominator) }

    // MARK: - Clean cut points

    /// The indices of the keyframes a copy of this H.264 stream (in an MP4 or QuickTime file at
    /// `path`, the file the packets were listed from) can start at or stop before without losing
    /// frames: IDR pictures without leading pictures. Keyframes of open GOPs are left out.
    public func cleanH264Keyframes(inFile path: String) -> [Int] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        return packets.indices.filter { i in
            let packet = packets[i]
            guard packet.isKeyframe, let pts = packet.pts, !hasLeadingPictures(after: i, shownFrom: pts),
                let position = packet.position, let size = packet.size
            else { return false }
            return Self.firstSliceIsIDR(fd: fd, position: position, size: size) == true
        }
    }

    /// Whether a packet after `index` in decode order, up to the next keyframe, is shown before
    /// `pts` (a leading picture: it decodes after the keyframe but belongs before it).
    func hasLeadingPictures(after index: Int, shownFrom pts: Int64) -> Bool {
        for packet in packets[(index + 1)...] {
            if packet.isKeyframe { break }
            if let other = packet.pts, other < pts { return true }
        }
        return false
    }

    /// Whether the first slice in the AVC packet of `size` bytes at `position` of `fd` is an IDR
    /// slice; nil when the packet cannot be walked as 4-byte-length NAL units.
    static func firstSliceIsIDR(fd: Int32, position: Int64, size: Int) -> Bool? {
        var offset = 0
        var header = [UInt8](repeating: 0, count: 5)
        while offset + 5 <= size {
            let got = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 5, off_t(position) + off_t(offset)) }
            guard got == 5 else { return nil }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            guard length > 0, offset + 4 + length <= size, header[4] & 0x80 == 0 else { return nil }
            switch header[4] & 0x1F {
            case 5: return true
            case 1, 2, 3, 4: return false  // a non-IDR slice (or data partition)
            default: offset += 4 + length  // SEI, parameter sets, delimiters: skipped
            }
        }
        return nil
    }
}
