// `wait-for-schema`, a serving pod's init step (deploy/kubernetes/deployment.yaml): 0 once the schema is current,
// 2 on a bad option; the lent database is left open.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { cliRunner } from '../helpers/cli.ts'
import { useTestDatabase } from '../helpers/fixture.ts'

describe('cli wait-for-schema', () => {
  const tdb = useTestDatabase()
  const { cli, lines } = cliRunner(() => tdb.db)

  it('exits 0 on a database that has every migration of this build, and leaves it open', async () => {
    assert.equal(await cli('wait-for-schema', '--timeout', '5'), 0)
    assert.deepEqual(lines, ['the schema is current'])
    assert.equal(await cli('wait-for-schema'), 0, 'the database is still usable')
  })

  it('refuses a timeout that is not a number of seconds, exit 2', async () => {
    assert.equal(await cli('wait-for-schema', '--timeout', 'ten'), 2)
    assert.match(lines.join('\n'), /--timeout must be a number of seconds, not "ten"/)
  })
})
