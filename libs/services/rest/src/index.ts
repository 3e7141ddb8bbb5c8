export { restService } from './rest.service-definition';
