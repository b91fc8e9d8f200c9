import { controllerService } from '@kcm-bus/runtime/reconciler/main.node.ts';
import { DECLARATIONS } from './declarations.ts';

await controllerService(DECLARATIONS);
