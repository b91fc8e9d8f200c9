import { runControllers } from '@kcm-bus/runtime/reconciler/run-controllers.node.ts';
import { DECLARATIONS } from './declarations.ts';

await runControllers(DECLARATIONS);
