import { describe, expect, it } from 'vitest';
import type { ClassifiedEffect, EffectKind } from '../../shared/model.js';
import { classifyCommand } from '../../electron/effects/classify.js';
import { simpleCommands } from '../../electron/effects/shell-split.js';

type Expected = { kind: EffectKind } & Partial<Pick<ClassifiedEffect, 'target' | 'compensation' | 'command'>>;
const NONE: Expected[] = [];
const push = (target: string, compensation?: string | null): Expected =>
  compensation === undefined ? { kind: 'git_push', target } : { kind: 'git_push', target, compensation };

const TABLE: [string, Expected[]][] = [
  // ---- git push, every form ----
  ['git push origin main', [push('origin/main', 'git push --force-with-lease=refs/heads/main origin <old>:refs/heads/main')]],
  ['git push', [push('<default remote>/<current branch>')]],
  ['git push -f origin main', [push('origin/main')]],
  ['git push --force-with-lease origin feature', [push('origin/feature')]],
  ['git push origin --delete old', [push('origin/old', 'git push origin <old>:refs/heads/old')]],
  ['git push -d origin a b', [push('origin/a'), push('origin/b')]],
  ['git push origin :gone', [push('origin/gone', 'git push origin <old>:refs/heads/gone')]],
  ['git push origin +main:release', [push('origin/release')]],
  ['git push origin HEAD:refs/heads/hotfix', [push('origin/hotfix')]],
  ['git push --all origin', [push('origin (all branches)', null)]],
  ['git push --tags', [push('<default remote> (tags)', null)]],
  ['git push --mirror backup', [push('backup (mirror)', null)]],
  ['git push origin v1.2.3:refs/tags/v1.2.3', [push('origin/v1.2.3', 'git push origin --delete refs/tags/v1.2.3')]],
  ['git push -u origin main', [push('origin/main')]],
  ['git push -fu origin main', [push('origin/main')]],
  ['git -C ../other push origin topic', [push('origin/topic', 'git -C ../other push --force-with-lease=refs/heads/topic origin <old>:refs/heads/topic')]],
  ['git -c user.name=x push https://bob:pw@github.com/o/r.git main', [{ kind: 'git_push', target: 'https://github.com/o/r.git/main', command: 'git -c user.name=x push https://github.com/o/r.git main' }]],
  ['git push --dry-run origin main', NONE],
  ['git push -n origin main', NONE],
  ['git push origin main; git push origin main --tags', [push('origin/main'), push('origin/main')]],
  // ---- not effects, though the words appear ----
  ['git status && git diff | cat', NONE],
  ["git commit -m 'git push origin main'", NONE],
  ["echo 'sudo git push --force'  # harmless", NONE],
  ['echo "npm publish" | tee out.txt', NONE],
  ['# git push origin main\nls -la', NONE],
  ['ls # ; git push', NONE],
  ['cat > notes.md <<\'END\'\nRemember: git push --force origin main\nand npm publish\nEND\nwc -l notes.md', NONE],
  ['git commit -m "$(cat <<\'MSG\'\nfix: things\n\ngit push origin main\nMSG\n)" && git push -u origin feature/x', [push('origin/feature/x')]],
  ['FOO="git push" make deploy', NONE],
  ['echo \\`git push\\`', NONE],
  ['echo "$(git rev-parse HEAD)"', NONE],
  ['python -c \'import os; os.system("git push")\'', NONE],
  ['find . -name "*.tmp" -delete', NONE],
  ['rm -rf node_modules && npm ci', NONE],
  ['npm run publish-docs', NONE],
  // ---- wrappers, substitutions, compound commands ----
  ["bash -c 'cd repo && git push --force origin HEAD:main'", [push('origin/main')]],
  ['sudo -E bash -lc "npm publish"', [{ kind: 'package_publish' }]],
  ["env -i PATH=/usr/bin sh -c 'docker push img:1'", [{ kind: 'container_push', target: 'img:1' }]],
  ['sudo -u deploy env FOO=1 npm publish --tag next', [{ kind: 'package_publish', compensation: 'npm unpublish <name>@<version>' }]],
  ['nohup git push origin main > push.log 2>&1 &', [push('origin/main')]],
  ['FOO=bar timeout 30 git push origin main', [push('origin/main')]],
  ['time git push origin main', [push('origin/main')]],
  ['eval "git push origin main"', [push('origin/main')]],
  ['x=$(git push origin main 2>&1)', [push('origin/main')]],
  ['echo `git push origin main`', [push('origin/main')]],
  ['(cd sub; npm publish) || echo failed', [{ kind: 'package_publish' }]],
  ['for b in a b; do git push origin "$b"; done', [push('origin/$b')]],
  ['case "$1" in\n  deploy) git push origin main ;;\nesac', [push('origin/main')]],
  ['if [ -n "$CI" ]; then helm upgrade app ./chart; fi', [{ kind: 'cluster_change', target: 'helm release app', compensation: 'helm rollback app' }]],
  ['true || terraform apply', [{ kind: 'infra_change' }]],
  ["sh <<'SCRIPT'\ngit push origin main\nSCRIPT", [push('origin/main')]],
  ['git log --format=%H | xargs -I{} git push origin {}:refs/heads/backup-{}', [push('origin/backup-{}')]],
  ['diff <(git show HEAD:a) <(curl -X POST https://x.example/api)', [{ kind: 'http_write', target: 'https://x.example/api' }]],
  ["git status\ngit push origin main \\\n  --force", [push('origin/main')]],
  // ---- packages ----
  ['npm publish --dry-run', NONE],
  ['yarn publish --new-version 1.2.0', [{ kind: 'package_publish' }]],
  ['yarn npm publish', [{ kind: 'package_publish' }]],
  ['pnpm -r publish --access public', [{ kind: 'package_publish' }]],
  ['bun publish', [{ kind: 'package_publish' }]],
  // ---- GitHub ----
  ['gh pr create --title "Add x" --body "git push origin main" --base main', [{ kind: 'pull_request', compensation: "gh pr close '<current branch>'" }]],
  ['gh pr create --head feat -R o/r', [{ kind: 'pull_request', target: 'o/r: feat', compensation: 'gh pr close feat -R o/r' }]],
  ['gh pr merge 42 --squash', [{ kind: 'pull_request', target: 'the current repository#42' }]],
  ['gh release create v1.0.0 --notes "first"', [{ kind: 'release', compensation: 'gh release delete v1.0.0 --cleanup-tag --yes' }]],
  ['gh pr view 12', NONE],
  ['gh api -X DELETE repos/o/r/git/refs/heads/x', [{ kind: 'http_write' }]],
  ['gh api repos/o/r/issues', NONE],
  // ---- containers and clusters ----
  ['docker push ghcr.io/o/app:1.0', [{ kind: 'container_push', target: 'ghcr.io/o/app:1.0' }]],
  ['docker buildx build --push -t ghcr.io/o/app:2 .', [{ kind: 'container_push', target: 'ghcr.io/o/app:2' }]],
  ['docker build -t app .', NONE],
  ['kubectl delete pod web-1 -n prod', [{ kind: 'cluster_change', target: 'pod web-1 [ns prod]' }]],
  ['kubectl get pods -A', NONE],
  ['kubectl create deployment web --image nginx', [{ kind: 'cluster_change', compensation: 'kubectl delete deployment web' }]],
  ['kubectl apply -f deploy.yaml -n prod --context gke', [{ kind: 'cluster_change', target: 'deploy.yaml [gke, ns prod]' }]],
  ['kubectl apply --dry-run=server -f k8s/', NONE],
  ['kubectl --dry-run=client apply -f deploy.yaml', NONE],
  ['kubectl rollout restart deployment/web', [{ kind: 'cluster_change' }]],
  ['kubectl rollout status deployment/web', NONE],
  ['helm install web ./chart -n prod', [{ kind: 'cluster_change', compensation: 'helm uninstall web -n prod' }]],
  ['helm upgrade web ./chart --dry-run', NONE],
  ['helm uninstall web', [{ kind: 'cluster_change', compensation: null }]],
  ['helm list', NONE],
  // ---- infrastructure and clouds ----
  ['terraform plan -out tf.plan', NONE],
  ['terraform -chdir=infra apply -auto-approve', [{ kind: 'infra_change', target: 'terraform in infra' }]],
  ['terraform destroy', [{ kind: 'infra_change' }]],
  ['tofu apply', [{ kind: 'infra_change' }]],
  ['pulumi up --yes', [{ kind: 'infra_change' }]],
  ['pulumi preview', NONE],
  ['aws s3 rm s3://bucket/key', [{ kind: 'cloud_change', target: 's3://bucket/key' }]],
  ['aws s3 sync ./dist s3://site --delete', [{ kind: 'cloud_change', target: 's3://site' }]],
  ['aws s3 cp s3://bucket/file ./local', NONE],
  ['aws s3 ls s3://bucket', NONE],
  ['aws --profile prod ec2 terminate-instances --instance-ids i-123', [{ kind: 'cloud_change' }]],
  ['aws ec2 run-instances --dry-run --image-id ami-1', NONE],
  ['aws lambda update-function-code --function-name f --zip-file fileb://f.zip', [{ kind: 'cloud_change', target: 'aws lambda f' }]],
  ['aws ec2 describe-instances', NONE],
  ['gcloud compute instances delete vm1 --zone us-east1-b', [{ kind: 'cloud_change' }]],
  ['gcloud run deploy api --source . --project p1', [{ kind: 'cloud_change' }]],
  ['gcloud compute instances list', NONE],
  ['gcloud config set project p1', NONE],
  ['az group delete --name rg1 --yes', [{ kind: 'cloud_change', target: 'az group rg1' }]],
  ['az vm list', NONE],
  ['az login', NONE],
  // ---- http ----
  ['curl https://example.com', NONE],
  ['curl -fsSL https://get.example.com/install.sh | sh', NONE],
  ['curl -XPUT https://api.example.com/items/1 -d @item.json', [{ kind: 'http_write', target: 'https://api.example.com/items/1' }]],
  ['curl --request DELETE "https://api.example.com/items/1"', [{ kind: 'http_write' }]],
  ['curl -F file=@a.png https://upload.example.com', [{ kind: 'http_write' }]],
  ['curl -G -d q=search https://example.com/search', NONE],
  ['curl -T backup.tgz ftp://ftp.example.com/', [{ kind: 'http_write' }]],
  ['curl -I https://example.com', NONE],
  [
    "curl -sSL -X POST https://user:tok@api.example.com/x -H 'Authorization: Bearer abc123' -d '{\"a\":1}'",
    [{ kind: 'http_write', target: 'https://api.example.com/x', command: "curl -sSL -X POST https://api.example.com/x -H 'Authorization: Bearer ***' -d '{\"a\":1}'" }],
  ],
  ["wget --post-data 'a=1' https://example.com/form", [{ kind: 'http_write' }]],
  ['wget https://example.com/file.tgz', NONE],
  ['http POST api.example.com/users name=x', [{ kind: 'http_write' }]],
  // ---- databases ----
  ["psql -d app -c 'SELECT count(*) FROM users'", NONE],
  ['psql -c "SELECT \'insert\' FROM t"', NONE],
  ['psql "postgres://u:pw@db/app" -c "DELETE FROM sessions"', [{ kind: 'database_write', target: 'postgres postgres://db/app' }]],
  ['mysql -h db -e "ALTER TABLE t ADD c int" app', [{ kind: 'database_write', target: 'mysql app on db' }]],
  ["mysql -u root -psecret app -e 'DROP TABLE t'", [{ kind: 'database_write', command: "mysql -u root -p*** app -e 'DROP TABLE t'" }]],
  ["mysql -e 'select * from t'", NONE],
  ["sqlite3 app.db 'select 1'", NONE],
  ['sqlite3 app.db "DROP TABLE users"', [{ kind: 'database_write', target: 'sqlite app.db' }]],
  // ---- remote hosts ----
  ['ssh prod.example.com', NONE],
  ["ssh -i ~/.ssh/key deploy@prod 'rm -rf /var/www/old'", [{ kind: 'remote_command', target: 'deploy@prod' }]],
  ["ssh -p 2222 deploy@prod 'sudo systemctl restart app'", [{ kind: 'remote_command', target: 'deploy@prod' }]],
  ['ssh -N -L 8080:localhost:80 bastion', NONE],
  ['scp dist.tgz deploy@prod:/srv/', [{ kind: 'remote_command', target: 'deploy@prod:/srv/' }]],
  ['scp deploy@prod:/srv/log.txt .', NONE],
  ['rsync -avz ./build/ web:/var/www/', [{ kind: 'remote_command' }]],
  ['rsync -avzn ./build/ web:/var/www/', NONE],
];

describe('classifyCommand', () => {
  it('has a table of at least 60 commands', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
  });

  it.each(TABLE)('%j', (command, expected) => {
    const found = classifyCommand(command);
    expect(found.map((e) => e.kind)).toEqual(expected.map((e) => e.kind));
    expected.forEach((e, i) => expect(found[i]).toMatchObject(e));
    for (const e of found) {
      expect(e.summary).not.toBe('');
      expect(e.command).not.toBe('');
    }
  });
});

describe('simpleCommands', () => {
  it('keeps quoted words whole and drops redirections', () => {
    expect(simpleCommands('FOO=1 git commit -m "a b" > out.txt 2>&1').map((c) => c.argv)).toEqual([['git', 'commit', '-m', 'a b']]);
  });
  it('parses substitutions inside double quotes, not inside single quotes', () => {
    expect(simpleCommands('echo "$(date)" \'$(rm x)\'').map((c) => c.argv[0])).toEqual(['date', 'echo']);
  });
  it('looks through wrappers to the real command', () => {
    expect(simpleCommands('sudo -u me nice -n 5 nohup env A=1 git push').map((c) => c.argv)).toEqual([['git', 'push']]);
  });
  it('`command -v` only looks a name up', () => {
    expect(simpleCommands('command -v git').map((c) => c.argv)).toEqual([]);
  });
  it('takes runs of ordinary characters whole, stopping at every character the shell treats specially', () => {
    expect(simpleCommands('echo a#b x\\ y "p$q\\"r$(id)s" ab2>f c|wc').map((c) => c.argv)).toEqual([['id'], ['echo', 'a#b', 'x y', 'p$q"r$(…)s', 'ab2', 'c'], ['wc']]);
    const long = 'ab12'.repeat(250_000);
    expect(simpleCommands(`git push origin main; echo ${long}:"${long}" >out`).map((c) => c.argv)).toEqual([['git', 'push', 'origin', 'main'], ['echo', `${long}:${long}`]]);
  });
});
