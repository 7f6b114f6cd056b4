import { runValidation } from './validation-kit.js';

runValidation('disk');
