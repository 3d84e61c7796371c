import { greet } from '@weft/fabric-model';
import { X } from '../../../migrations/x';
console.log(greet(), X);
