import { type EdgeReply, type EdgeRequest, jsonReply } from '@doable/contracts-common';
import { SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { RpcController } from '@doable/shared-runtime';
import { Inject } from '@nestjs/common';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { TEMPLATES_PUBLIC_URL, TemplatesService } from '../templates/templates.service';

/**
 * A download's Content-Disposition. Header values are Latin-1: a project named in another
 * script would make the header unsendable, so the name goes as RFC 6266's `filename*` (UTF-8,
 * percent-encoded), with an ASCII `filename` beside it for old clients.
 */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The path's last segment: the template call (`export_as_file`, `file`, `create_project_from_file`...). */
const callOf = (path: string): string => path.replace(/\/+$/, '').split('/').pop() ?? '';

/**
 * Templates over the transport. v8/v9 (`/sync/v8|v9/templates/<call>`): query or form
 * parameters, imports answered `{"status": "ok"}`. api/v1 (`/api/v1/templates/<call>`): imports
 * answered with what the project holds after them (sdk 17 ImportTemplateResponse).
 */
@RpcController()
export class TemplatesRpcController {
  constructor(
    private readonly templates: TemplatesService,
    @Inject(TEMPLATES_PUBLIC_URL) private readonly publicUrl: string,
  ) {}

  @Handles(SyncSubjects.templates, { principal: true })
  async handle(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    const principal = request.principal;
    const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
    const params = { ...request.query, ...body };
    const apiV1 = request.dialect === 'rest-api-v1';
    const call = callOf(request.path);
    switch (call) {
      case 'export_as_file':
      case 'file': {
        const { fileName, csv } = await this.templates.exportFile(principal, params);
        return { status: 200, body: csv, contentType: 'text/csv; charset=utf-8', headers: { 'Content-Disposition': attachmentHeader(fileName) } };
      }
      case 'export_as_url':
      case 'url': {
        const filePath = request.path.replace(/\/(export_as_url|url)\/?$/, apiV1 ? '/file' : '/export_as_file');
        return jsonReply(200, await this.templates.exportUrl(principal, params, `${this.publicUrl}${filePath}`));
      }
      case 'import_into_project':
      case 'import_into_project_from_file': {
        const projectId = await this.templates.importIntoProject(principal, params, request.requestId);
        return jsonReply(200, apiV1 ? await this.templates.importResponse(principal.userId, projectId) : { status: 'ok' });
      }
      case 'create_project_from_file': {
        const projectId = await this.templates.createProject(principal, params, request.requestId);
        return jsonReply(200, await this.templates.importResponse(principal.userId, projectId));
      }
      case 'import_into_project_from_template_id':
        return this.templates.importFromTemplateId(principal, params);
      default:
        throw new DomainError('ROUTE_NOT_FOUND', `No template endpoint at ${request.path}`);
    }
  }
}
