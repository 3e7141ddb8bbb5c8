export { uploadsService } from './uploads.service-definition';
