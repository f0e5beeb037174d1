// After Apple's AVAudioPlayer documentation: a player for a file, played once more
// (numberOfLoops = 1), its delegate told when it finishes. The device is the player's
// currentDevice (on Linux an ALSA PCM name; the test gives ALSA's file PCM, which writes what it
// plays to a WAV file).
import AVFAudio
import Foundation

final class FilePlayback: AVAudioPlayerDelegate {
    var player: AVAudioPlayer?
    let finished = DispatchSemaphore(value: 0)
    private(set) var finishedSuccessfully: Bool?

    func play(_ url: URL, device: String) throws -> Bool {
        let player = try AVAudioPlayer(contentsOf: url)
        player.delegate = self
        player.numberOfLoops = 1
        player.currentDevice = device
        self.player = player
        guard player.prepareToPlay() else { return false }
        return player.play()
    }

    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
        finishedSuccessfully = flag
        finished.signal()
    }
}
