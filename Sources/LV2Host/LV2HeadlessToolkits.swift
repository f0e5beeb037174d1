import Glibc

/// Some plug-ins start a GUI toolkit inside their DSP library (drumkv1 and the other rncbc
/// synths create a Qt application object on instantiate). Without a display Qt's default platform
/// aborts the process. A host that renders headless still runs them, as jalv does: before the
/// first plug-in is instantiated, `QT_QPA_PLATFORM` is set to `offscreen` unless the user (or the
/// program embedding AUHost) already chose a platform. See docs/LV2.md.
enum LV2HeadlessToolkits {
    /// Sets QT_QPA_PLATFORM=offscreen if unset, once per process. Thread: setup (before the
    /// first instantiate; setenv is not safe against concurrent getenv on other threads).
    static let prepare: Void = {
        setenv("QT_QPA_PLATFORM", "offscreen", 0)
    }()
}
