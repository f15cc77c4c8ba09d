// each file of this private package adds its exports here
export {
  type ChatServer,
  type ChatServerAnswer,
  type ChatServerFault,
  type ChatServerHandler,
  type ChatServerHandlerContext,
  type ChatServerMessage,
  type ChatServerOptions,
  type ChatServerRecord,
  type ChatServerReply,
  type ChatServerRequestBody,
  type ChatServerUsage,
  startChatServer,
  unusedPort,
} from './chat-server.js';
export { abortListeners, listenerWarnings } from './listeners.js';
export {
  type LongMemEvalDataOptions,
  type LongMemEvalDataSummary,
  writeLongMemEvalFile,
} from './longmemeval-data.js';
export {
  TINY_MODEL_IR_VERSION,
  TINY_MODEL_OPSET,
  type TinyModelPrecision,
  tinyClassifierGraph,
  tinyFeatureExtractorGraph,
} from './onnx/graph.js';
export { TINY_SPECIAL_TOKENS, tinyTokenizerFiles, tinyVocabulary } from './onnx/tokenizer.js';
export {
  TINY_NLI_LABELS,
  type TinyClassifierOptions,
  type TinyModelInfo,
  type TinyModelOptions,
  writeTinyClassifier,
  writeTinyFeatureExtractor,
} from './onnx/write-model.js';
