/// Every example, in the order.
let allExamples: [Example] =
    ioExamples + outputExamples + pattern5Examples + listingExamples + seedExamples + audioQueueExamples + systemSoundExamples
    + audioSessionExamples + coreMIDIExamples + openALExamples
    + extensionExamples
