import { runValidation } from './validation-kit.js';

runValidation('memfs');
