/*
 * AUGraph.h — audio processing graphs: nodes (units), connections between their buses, input
 * callbacks, and one I/O (output) unit at the head through which the graph starts, stops and is
 * rendered. Changes made to an initialized graph take effect at AUGraphUpdate, which compiles a
 * new render schedule off the render thread and swaps it in without blocking the render thread.
 */
#ifndef AUHOST_AUGRAPH_H
#define AUHOST_AUGRAPH_H

#include <AudioToolbox/AudioUnitProperties.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef struct OpaqueAUGraph *AUGraph;
typedef SInt32 AUNode;

AU_ENUM(OSStatus) {
    kAUGraphErr_NodeNotFound = -10860,
    kAUGraphErr_InvalidConnection = -10861,
    kAUGraphErr_OutputNodeErr = -10862,
    kAUGraphErr_CannotDoInCurrentContext = -10863,
    kAUGraphErr_InvalidAudioUnit = -10864
};

typedef struct AUNodeRenderCallback {
    AUNode destNode;
    AudioUnitElement destInputNumber;
    AURenderCallbackStruct cback;
} AUNodeRenderCallback;

typedef struct AUNodeConnection {
    AUNode sourceNode;
    UInt32 sourceOutputNumber;
    AUNode destNode;
    UInt32 destInputNumber;
} AUNodeConnection;

AU_ENUM(UInt32) {
    kAUNodeInteraction_Connection = 1,
    kAUNodeInteraction_InputCallback = 2
};

typedef struct AUNodeInteraction {
    UInt32 nodeInteractionType;
    union {
        AUNodeConnection connection;
        AUNodeRenderCallback inputCallback;
    } nodeInteraction;
} AUNodeInteraction;

/* All [setup] unless noted. Errors carry the documented codes; AUHostCopyLastErrorMessage gives
   the sentence (which nodes, which formats). */
OSStatus NewAUGraph(AUGraph _Nullable *_Nonnull outGraph);
/* Stops, uninitializes and closes the graph, then frees it and its units. */
OSStatus DisposeAUGraph(AUGraph inGraph);
/* A second I/O (output) unit is refused with kAUGraphErr_OutputNodeErr. */
OSStatus AUGraphAddNode(AUGraph inGraph, const AudioComponentDescription *inDescription, AUNode *outNode);
/* [setup] AUHost extension: AUGraphAddNode for a unit that lives in a child process of its own
   (AUHostIsolation.h; graph files' "isolated": true): a crash, hang or NaN there silences that
   node only, and the node's AudioUnit answers AUHostIsolatedUnitCopyFaultDescription and
   AUHostIsolatedUnitRestart. */
OSStatus AUHostGraphAddNodeOutOfProcess(AUGraph inGraph, const AudioComponentDescription *inDescription, AUNode *outNode);
OSStatus AUGraphRemoveNode(AUGraph inGraph, AUNode inNode);
OSStatus AUGraphGetNodeCount(AUGraph inGraph, UInt32 *outNumberOfNodes);
OSStatus AUGraphGetIndNode(AUGraph inGraph, UInt32 inIndex, AUNode *outNode);
/* Either out-pointer may be NULL; the unit is NULL until the graph is open. */
OSStatus AUGraphNodeInfo(AUGraph inGraph, AUNode inNode, AudioComponentDescription *_Nullable outDescription, AudioUnit _Nullable *_Nullable outAudioUnit);
/* Instantiates every node's unit (does not initialize them). */
OSStatus AUGraphOpen(AUGraph inGraph);
OSStatus AUGraphClose(AUGraph inGraph);
OSStatus AUGraphIsOpen(AUGraph inGraph, Boolean *outIsOpen);
/* One output bus may feed several inputs (it renders once per cycle). A connection that would
   close a cycle, or a second source into one input bus, is refused with kAUGraphErr_InvalidConnection. */
OSStatus AUGraphConnectNodeInput(AUGraph inGraph, AUNode inSourceNode, UInt32 inSourceOutputNumber,
                                 AUNode inDestNode, UInt32 inDestInputNumber);
OSStatus AUGraphSetNodeInputCallback(AUGraph inGraph, AUNode inDestNode, UInt32 inDestInputNumber,
                                     const AURenderCallbackStruct *inInputCallback);
OSStatus AUGraphDisconnectNodeInput(AUGraph inGraph, AUNode inDestNode, UInt32 inDestInputNumber);
OSStatus AUGraphClearConnections(AUGraph inGraph);
OSStatus AUGraphGetNumberOfInteractions(AUGraph inGraph, UInt32 *outNumInteractions);
OSStatus AUGraphGetInteractionInfo(AUGraph inGraph, UInt32 inInteractionIndex, AUNodeInteraction *outInteraction);
OSStatus AUGraphCountNodeInteractions(AUGraph inGraph, AUNode inNode, UInt32 *outNumInteractions);
OSStatus AUGraphGetNodeInteractions(AUGraph inGraph, AUNode inNode, UInt32 *ioNumInteractions, AUNodeInteraction *outInteractions);
/* Applies changes made since the last update. NULL outIsUpdated: returns once the render thread
   uses the new schedule. Non-NULL: returns at once; *outIsUpdated says whether it is in use. */
OSStatus AUGraphUpdate(AUGraph inGraph, Boolean *_Nullable outIsUpdated);
/* Propagates stream formats along connections, initializes every unit, compiles the schedule. */
OSStatus AUGraphInitialize(AUGraph inGraph);
OSStatus AUGraphUninitialize(AUGraph inGraph);
OSStatus AUGraphIsInitialized(AUGraph inGraph, Boolean *outIsInitialized);
/* Start and stop act through the head (the output unit). */
OSStatus AUGraphStart(AUGraph inGraph);
OSStatus AUGraphStop(AUGraph inGraph);
OSStatus AUGraphIsRunning(AUGraph inGraph, Boolean *outIsRunning);
/* [any thread] Render time over buffer duration: last cycle, and the maximum since the last call. */
OSStatus AUGraphGetCPULoad(AUGraph inGraph, Float32 *outAverageCPULoad);
OSStatus AUGraphGetMaxCPULoad(AUGraph inGraph, Float32 *outMaxLoad);
/* Notifications around each render of the head. */
OSStatus AUGraphAddRenderNotify(AUGraph inGraph, AURenderCallback inCallback, void *_Nullable inRefCon);
OSStatus AUGraphRemoveRenderNotify(AUGraph inGraph, AURenderCallback inCallback, void *_Nullable inRefCon);

/* AUHost extensions. Latency compensation (on by default): where parallel paths with different
   reported latency (kAudioUnitProperty_Latency) meet, the shorter ones are delayed to arrive
   aligned. Takes effect at the next AUGraphInitialize or AUGraphUpdate. */
OSStatus AUGraphSetLatencyCompensation(AUGraph inGraph, Boolean inEnabled);
/* [any thread] The graph's total latency at the head's input, in seconds, for the schedule in use. */
OSStatus AUGraphGetLatency(AUGraph inGraph, Float64 *outSeconds);
/* AUHost extension: parallel rendering. The number of threads that render the graph, the head's
   own included: 0 renders every node on the head's thread (as Apple's AUGraph does); 1 uses the
   parallel scheduler on the head's thread alone; N adds N - 1 worker threads (started at
   AUGraphInitialize, real-time when the head's thread is). Independent branches then render at
   once, with output bit-identical to the serial schedule; nodes fed by an input callback still
   render on the head's thread, in the serial order. A graph with nothing to gain (a chain) renders
   serially. Default: the number of CPU cores. At most 64 (kAudio_ParamError beyond). [setup] An
   initialized graph adopts a new count at once. */
OSStatus AUGraphSetRenderThreadCount(AUGraph inGraph, UInt32 inThreads);
/* [any thread] The thread count set (or the default). */
OSStatus AUGraphGetRenderThreadCount(AUGraph inGraph, UInt32 *outThreads);

/* AUHost extension: a tempo and meter for a graph no MusicPlayer plays. Every node is handed host
   callbacks (kAudioUnitProperty_HostCallbacks, AudioUnitProperties.h) that count beats (quarter
   notes) from the head's rendered frames: beat 0 at the first cycle after this call or
   AUGraphInitialize, bars of inBeatsPerBar inBeatUnit notes from beat 0, playing while the graph
   renders; LV2 units pass it on as time:Position. 0 BPM takes the callbacks back. A MusicPlayer
   attached to the graph's sequence hands its own instead (set the tempo again once it has let go).
   Tempo 0 < BPM ≤ 1000, inBeatsPerBar 1…64, inBeatUnit 1, 2, 4, 8, 16 or 32 (kAudio_ParamError
   otherwise). [setup] */
OSStatus AUGraphSetTempo(AUGraph inGraph, Float64 inBeatsPerMinute, UInt32 inBeatsPerBar, UInt32 inBeatUnit);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
