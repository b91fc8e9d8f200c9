import { SERVICEACCOUNT_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { declared, type Declared } from '@kcm-bus/runtime/controller/index.ts';
import {
  serviceAccountsControllerSpec,
  type ServiceAccountsInputs,
} from './serviceaccounts/serviceaccounts-controller.ts';

/** SA_FIELDS: the service account controller reads whether an account exists, nothing of its content. */
const SA_FIELDS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'metadata.resourceVersion'];

/** serviceAccounts is upstream's serviceaccount-controller: namespaces and their accounts, by namespace. */
const serviceAccounts = declared(
  SERVICEACCOUNT_CONTROLLER,
  'serviceaccount',
)<ServiceAccountsInputs>({
  inputs: { serviceAccounts: { fields: SA_FIELDS } },
  spec: (listers) => serviceAccountsControllerSpec(listers),
});

/** DECLARATIONS are the controllers reconciler-namespace runs, each a catalog entry's part and its code. */
export const DECLARATIONS: readonly Declared[] = [serviceAccounts];
