import type { Recipe } from '../obtain.ts';
import { apicurioRecipe } from './apicurio.ts';
import { etcdRecipe } from './etcd.ts';
import { kafkaRecipe } from './kafka.ts';
import { kubeRecipe } from './kube.ts';
import { kwokRecipe } from './kwok.ts';

/** GO_RECIPES compete for the CPU, so they are built one after another. */
export const GO_RECIPES: readonly Recipe[] = [
  etcdRecipe,
  kubeRecipe('kube-apiserver'),
  kubeRecipe('kube-scheduler'),
  kubeRecipe('kube-controller-manager'),
  kwokRecipe,
];

/** JAVA_RECIPES are mostly downloads and run beside the Go builds. */
export const JAVA_RECIPES: readonly Recipe[] = [kafkaRecipe, apicurioRecipe];
