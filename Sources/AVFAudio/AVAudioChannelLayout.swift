import AudioToolbox

/// A channel layout (Apple's AVAudioChannelLayout), by layout tag. Layouts given by channel
/// descriptions or bitmaps keep their tag only (docs/PORTING.md).
///
/// Thread: any (immutable).
public final class AVAudioChannelLayout: Equatable {
    public let layoutTag: AudioChannelLayoutTag

    /// Thread: any.
    public init?(layoutTag: AudioChannelLayoutTag) {
        guard layoutTag & 0xFFFF > 0 else { return nil }  // a tag that names its channel count
        self.layoutTag = layoutTag
    }

    /// Thread: any.
    public convenience init(layout: UnsafePointer<AudioChannelLayout>) {
        self.init(layoutTag: layout.pointee.mChannelLayoutTag)!
    }

    /// The channel count the tag encodes (its low 16 bits).
    ///
    /// Thread: any.
    public var channelCount: AVAudioChannelCount { layoutTag & 0xFFFF }

    /// Thread: any.
    public static func == (a: AVAudioChannelLayout, b: AVAudioChannelLayout) -> Bool { a.layoutTag == b.layoutTag }
}
