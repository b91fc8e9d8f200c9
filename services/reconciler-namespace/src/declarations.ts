import { ROOT_CA_CERT_PUBLISHER, SERVICEACCOUNT_CONTROLLER } from '@kcm-bus/catalog/controllers.ts';
import { declared, type Declared } from '@kcm-bus/runtime/controller/index.ts';
import {
  serviceAccountsControllerSpec,
  type ServiceAccountsInputs,
} from './serviceaccounts/serviceaccounts-controller.ts';
import { rootCAPublisherSpec, type RootCAInputs } from './root-ca/root-ca-publisher.ts';
import { readRootCA } from './root-ca/root-ca.fs.ts';

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

/** rootCAPublisher is upstream's root-ca-certificate-publisher-controller: namespaces and their root CA ConfigMap. */
const rootCAPublisher = declared(
  ROOT_CA_CERT_PUBLISHER,
  'root_ca_cert_publisher',
)<RootCAInputs>({
  inputs: {},
  flags: [
    {
      name: 'root-ca-file',
      type: 'string',
      default: '',
      help: "The CA bundle published as kube-root-ca.crt in every namespace (kube-controller-manager's flag; required here: the service has no kubeconfig to take it from).",
    },
  ],
  spec: (listers, { flags }) => rootCAPublisherSpec(listers, readRootCA(flags.string('root-ca-file'))),
});

/** DECLARATIONS are the controllers reconciler-namespace runs, each a catalog entry's part and its code. */
export const DECLARATIONS: readonly Declared[] = [serviceAccounts, rootCAPublisher];
