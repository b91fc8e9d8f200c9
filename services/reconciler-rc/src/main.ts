import { runControllers } from '@kcm-bus/runtime/reconcile/run-controller.node.ts';
import { DECLARATIONS } from './declarations.ts';

await runControllers(DECLARATIONS);
