export { SearchCoreError, SearchCoreErrorCode } from './errors.js';
