/** compactEtcd compacts etcd's history up to its current revision (through etcd's JSON gateway) and returns it. */
export async function compactEtcd(etcdUrl: string): Promise<number> {
  const range = await fetch(`${etcdUrl}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({ key: Buffer.from('/').toString('base64') }),
  });
  const revision = Number(((await range.json()) as { header: { revision: string } }).header.revision);
  const compaction = await fetch(`${etcdUrl}/v3/kv/compaction`, {
    method: 'POST',
    body: JSON.stringify({ revision, physical: true }),
  });
  if (!compaction.ok) throw new Error(`etcd compaction: ${compaction.status} ${await compaction.text()}`);
  return revision;
}
