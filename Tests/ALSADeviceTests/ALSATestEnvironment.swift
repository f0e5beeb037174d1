import ALSATestSupport
import Foundation

/// This test process's ALSA home: the fixture asoundrc through a temporary HOME.
let ALSATestEnvironment = ALSATestHome(
    prefix: "alsadevice-tests",
    asoundrc: Bundle.module.url(forResource: "Fixtures/asoundrc", withExtension: nil)!)
