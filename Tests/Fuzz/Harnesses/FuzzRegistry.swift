/// Every fuzz harness by name: one line each. The name is also the folder of its seed corpus
/// (Tests/Fuzz/Corpus/NAME) and of the crashes it found (Tests/Fuzz/Crashes/NAME); `make fuzz`
/// runs each, and FuzzReplayTests replays both folders through it in `make test`.
public enum FuzzRegistry {
    /// Thread: any (each harness is called by one thread at a time).
    public static let harnesses: [(name: String, run: (UnsafeRawBufferPointer) -> Void)] = [
        ("GraphFile", GraphFileFuzz.run),
        ("AudioFile", AudioFileFuzz.run),
        ("CAPIFuzz", CAPIFuzz.run),
        ("RenderNotifyFuzz", RenderNotifyFuzz.run),
        ("MIDIFile", MIDIFileFuzz.run),
        ("AudioFileStream", AudioFileStreamFuzz.run),
        ("IsolationShape", IsolationShapeFuzz.run),
        ("AudioConverter", AudioConverterFuzz.run),
        ("AudioQueue", AudioQueueFuzz.run),
        ("AudioQueueDevice", AudioQueueDeviceFuzz.run),
        ("IsolatedUnit", IsolatedUnitFuzz.run),
        ("MusicPlayer", MusicPlayerFuzz.run),
        ("UIMessages", UIMessagesFuzz.run),
        ("UIHostLines", UIHostLinesFuzz.run),
        ("LV2Descriptor", LV2DescriptorFuzz.run),
        ("LADSPACatalog", LADSPACatalogFuzz.run),
        ("GraphChain", GraphChainFuzz.run),
        ("LV2Catalog", LV2CatalogFuzz.run),
    ]

    /// The harness called `name`. Thread: any.
    public static func harness(_ name: String) -> ((UnsafeRawBufferPointer) -> Void)? {
        harnesses.first { $0.name == name }?.run
    }
}
