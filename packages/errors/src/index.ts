export { looksBinary, printable, withoutByteOrderMark } from './printable.js';
export {
  ErrorKind,
  isTransient,
  QualmError,
  type QualmErrorOptions,
} from './qualm-error.js';
