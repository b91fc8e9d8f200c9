import { createHash, createPublicKey, type KeyObject, sign } from 'node:crypto';

/*
 * The legacy service-account token, as upstream's token controller mints it (pkg/serviceaccount: LegacyClaims,
 * JWTTokenGenerator, GenerateToken): a compact JWS signed with the cluster's service-account key, issuer
 * `kubernetes/serviceaccount`, no expiry. Header and claims are JSON with sorted keys, as go-jose marshals its maps,
 * so a token minted here is byte for byte the one upstream would mint for the same account and Secret.
 */

/** LEGACY_ISSUER is serviceaccount.LegacyIssuer. */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';

/** TokenSubject is who a legacy token names: the account (namespace, name, uid) and the Secret that holds it. */
export type TokenSubject = {
  readonly namespace: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUID: string;
  readonly secretName: string;
};

/** TokenSigner signs legacy tokens with one private key: RSA (RS256) or ECDSA P-256/384/521 (ES256/384/512). */
export type TokenSigner = { readonly alg: string; readonly kid: string; readonly key: KeyObject };

const EC_ALGS: Readonly<Record<string, string>> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** tokenSigner wraps a private key; a key of another type or curve throws (upstream's JWTTokenGenerator refuses it too). */
export function tokenSigner(key: KeyObject): TokenSigner {
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const alg = key.asymmetricKeyType === 'rsa' ? 'RS256' : curve === undefined ? undefined : EC_ALGS[curve];
  if (alg === undefined)
    throw new Error(`a ${key.asymmetricKeyType ?? 'symmetric'} key signs no service-account token (RSA or ECDSA)`);
  return { alg, kid: keyIdOf(key), key };
}

/** keyIdOf mirrors keyIDFromPublicKey: the base64url SHA-256 of the public key's PKIX DER. */
export function keyIdOf(privateKey: KeyObject): string {
  const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

/** mintLegacyToken is GenerateToken(LegacyClaims(account, secret)): the compact JWS text. */
export function mintLegacyToken(signer: TokenSigner, s: TokenSubject): string {
  const header = { alg: signer.alg, kid: signer.kid };
  const claims = {
    iss: LEGACY_ISSUER,
    'kubernetes.io/serviceaccount/namespace': s.namespace,
    'kubernetes.io/serviceaccount/secret.name': s.secretName,
    'kubernetes.io/serviceaccount/service-account.name': s.serviceAccountName,
    'kubernetes.io/serviceaccount/service-account.uid': s.serviceAccountUID,
    sub: `system:serviceaccount:${s.namespace}:${s.serviceAccountName}`,
  };
  const input = `${base64url(header)}.${base64url(claims)}`;
  const ec = signer.alg.startsWith('ES');
  const digest = `sha${signer.alg.slice(2)}`;
  const signature = sign(digest, Buffer.from(input), ec ? { key: signer.key, dsaEncoding: 'ieee-p1363' } : signer.key);
  return `${input}.${signature.toString('base64url')}`;
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
